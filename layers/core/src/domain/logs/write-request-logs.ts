import { storedBodies, type LogMessage } from './request-log.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems } from '../../table/ops.ts';
import { LOG_RETENTION_DAYS } from '../../limits.ts';

const ttlOf = (deps: Pick<Deps, 'clock'>) => Math.floor(deps.clock.now() / 1000) + LOG_RETENTION_DAYS * 86_400;

/** The recorder: writes queued logs (a log written twice is the same row). */
export const writeRequestLogs = async (deps: Deps, messages: readonly LogMessage[]): Promise<void> => {
  const ttl = ttlOf(deps);
  await batchWriteItems(deps, {
    put: messages.map((m) => ({
      ...keys.requestLog.item(m.team_id, m.id),
      type: 'request_log',
      ...m,
      ...storedBodies(m),
      ttl,
    })),
  });
};
