import { labelFromItem } from './inbox-label.ts';
import type { InboxLabel } from './inbox-label.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';
import type { Mailbox } from './mailbox.ts';

/** An inbox's labels, oldest first (few: read whole). */
export const listInboxLabels = async (deps: Deps, m: Mailbox): Promise<InboxLabel[]> =>
  (await queryAll(deps, { pk: keys.mailbox.threadPartition(m.teamId, m.id), prefix: keys.mailbox.labelPrefix })).map(
    labelFromItem,
  );
