import { transitionEmail } from './transition-email.ts';
import { getEmailOf } from './get-email.ts';
import type { Caller } from '../caller.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { scheduleName } from './accept-emails.ts';
import { PRE_SEND_STATUSES, type EmailItem } from './email.ts';

/** Cancels an email that has not left yet. */
export const cancelEmail = async (deps: Deps, caller: Caller, id: string): Promise<EmailItem> => {
  const e = await getEmailOf(deps, caller, id);
  if (e.status === 'canceled') return e;
  await transitionEmail(
    deps,
    e,
    PRE_SEND_STATUSES,
    {
      set: { status: 'canceled', updated_at: new Date(deps.clock.now()).toISOString() },
      remove: keys.email.waitingAttributes,
    },
    'canceled',
  );
  await deps.scheduler.cancel(scheduleName(id));
  return { ...e, status: 'canceled' };
};
