import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { loadMessage, type MailboxMessage } from './message.ts';

/**
 * A received message of the team (404 for another team's, for mail this service sent, and for
 * a mailbox outside `within` when the caller is restricted to some mailboxes).
 */
export const getReceivedMessage = async (
  deps: Deps,
  teamId: string,
  id: string,
  within?: readonly string[],
): Promise<MailboxMessage> => {
  const m = await loadMessage(deps, teamId, id);
  if (m.direction !== 'inbound' || (within && !within.includes(m.mailboxId))) throw notFound('Email');
  return m;
};
