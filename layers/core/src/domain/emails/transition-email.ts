import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem, type Change } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { getEmail } from './get-email.ts';
import type { EmailItem, EmailStatus } from './email.ts';

/** Moves an email on from one of `from`, or answers 409 naming where it is now. */
export const transitionEmail = async (
  deps: Deps,
  e: EmailItem,
  from: readonly EmailStatus[],
  change: Change,
  what: string,
): Promise<void> => {
  const moved = await updateItem(deps, keys.email.item(e.team_id, e.id), change, { attr: 'status', in: from });
  if (!moved)
    throw new ApiError(
      'conflict',
      `This email can no longer be ${what}: it has already left (last event: ${(await getEmail(deps, e.team_id, e.id)).status}).`,
    );
};
