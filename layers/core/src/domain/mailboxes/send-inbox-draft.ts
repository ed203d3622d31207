import { asApi, apiKeyActor, apiKeyMailboxCaller } from './inbox-draft.ts';
import { getInboxDraft } from './get-inbox-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Caller } from '../caller.ts';
import type { Mailbox } from './mailbox.ts';
import { sendDraft } from './send-draft.ts';

/** Sends a draft at its latest revision through the mailbox send (the email's id back; a repeat answers the same). */
export const sendInboxDraft = async (deps: Deps, caller: Caller, m: Mailbox, draftId: string, revision?: number) => {
  const d = await getInboxDraft(deps, m, draftId);
  return asApi(() =>
    sendDraft(deps, apiKeyMailboxCaller(caller, m), apiKeyActor(caller), {
      id: d.id,
      expectedRevision: revision ?? d.revision,
    }),
  );
};
