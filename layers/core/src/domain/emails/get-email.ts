import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import type { Caller } from '../caller.ts';
import type { EmailItem } from './email.ts';
import { withBodies } from './email-content.ts';
import { bodyWithinAnswer } from '../answer-bodies.ts';
import { isExpired } from './retention.ts';

/** Reads a team's email; another team's id answers 404. */
export const getEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const item = await getItem(deps, keys.email.item(teamId, id));
  // Past the email retention it is gone, whether or not DynamoDB has removed it yet.
  if (!item || isExpired(deps, item)) throw notFound('Email');
  return item as EmailItem;
};

/**
 * Reads a team's email with its bodies in hand (from its body item or the content store where
 * they are kept), as many as one answer carries (bodyWithinAnswer: past it a body reads null).
 */
export const getEmailWithBodies = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> =>
  bodyWithinAnswer(await withBodies(deps, await getEmail(deps, teamId, id)));

/**
 * Reads an email the caller may act on: a key restricted to one sending domain reaches only the
 * emails sent from it (403 restricted_api_key for the others, as when it sends from them).
 */
export const getEmailOf = async (deps: Deps, caller: Caller, id: string): Promise<EmailItem> => {
  const e = await getEmail(deps, caller.team.id, id);
  if (caller.domainId && e.domain_id !== caller.domainId)
    throw new ApiError(
      'restricted_api_key',
      `This API key may only act on emails sent from its own domain; email ${id} was sent from another.`,
    );
  return e;
};
