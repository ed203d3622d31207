import { transitionEmail } from './transition-email.ts';
import { getEmailOf } from './get-email.ts';
import type { Caller } from '../caller.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import { parseScheduledAt } from './schedule-time.ts';
import { scheduleName } from './accept-emails.ts';
import type { EmailItem } from './email.ts';

/** Moves a scheduled email to a new time (PATCH /emails/{id}). */
export const rescheduleEmail = async (
  deps: Deps,
  caller: Caller,
  id: string,
  scheduledAt: string,
): Promise<EmailItem> => {
  const e = await getEmailOf(deps, caller, id);
  const teamId = caller.team.id;
  const at = parseScheduledAt(scheduledAt, deps.clock.now());
  if (e.status !== 'scheduled')
    throw new ApiError('conflict', `Only a scheduled email can be rescheduled; this one is ${e.status}.`);
  if (at === undefined) throw validationError('`scheduled_at` must be in the future.');
  const iso = new Date(at).toISOString();
  await transitionEmail(
    deps,
    e,
    ['scheduled'],
    {
      set: { scheduled_at: iso, updated_at: new Date(deps.clock.now()).toISOString(), ...keys.email.sendDue(id, iso) },
    },
    'rescheduled',
  );
  await deps.scheduler.schedule({
    name: scheduleName(id),
    at,
    queueUrl: deps.config.SEND_QUEUE_URL,
    body: { teamId, emailId: id },
  });
  return { ...e, scheduled_at: iso };
};
