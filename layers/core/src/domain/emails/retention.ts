import type { Deps } from '../../runtime/deps.ts';
import { TABLE } from '../../table/definition.ts';

const DAY_SECONDS = 86_400;

/**
 * The expiry an email's items (its row, body item and attachment chunks) and its events carry
 * under the email retention (`EMAIL_RETENTION_DAYS`, `mailstack:emailRetentionDays`): that many
 * days after `at` (epoch ms), in the table's TTL attribute (epoch seconds), for DynamoDB to
 * remove them. Nothing while the retention is 0 (off): emails are kept.
 */
export const emailExpiry = (deps: Pick<Deps, 'config'>, at: number): Record<string, number> => {
  const days = deps.config.EMAIL_RETENTION_DAYS;
  return days > 0 ? { [TABLE.ttlAttribute]: Math.floor(at / 1000) + days * DAY_SECONDS } : {};
};

/**
 * Whether an item read back is past its expiry: DynamoDB removes expired items within days, not
 * at once, so a read answers as if it were gone already.
 */
export const isExpired = (deps: Pick<Deps, 'clock'>, item: Readonly<Record<string, unknown>>): boolean => {
  const at = item[TABLE.ttlAttribute];
  return typeof at === 'number' && at * 1000 <= deps.clock.now();
};
