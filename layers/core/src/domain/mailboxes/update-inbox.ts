import { resolveInbox } from './inbox.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Mailbox } from './mailbox.ts';
import { renameMailbox } from './rename-mailbox.ts';

/** Renames an inbox: its `name` (title) and/or `from_name` (the display name its mail goes out with). */
export const updateInbox = async (
  deps: Deps,
  teamId: string,
  idOrAddress: string,
  change: { name?: string | undefined; fromName?: string | undefined },
): Promise<Mailbox> => {
  const m = await resolveInbox(deps, teamId, idOrAddress);
  return renameMailbox(deps, teamId, m.id, { title: change.name, name: change.fromName }, 'api');
};
