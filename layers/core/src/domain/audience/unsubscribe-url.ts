import type { Deps } from '../../runtime/deps.ts';
import { signLink } from './tokens.ts';

/** The one-click unsubscribe URL of a recipient for a topic send (List-Unsubscribe and {{{UNSUBSCRIBE_URL}}}). */
export const unsubscribeUrl = async (
  deps: Deps,
  input: { teamId: string; email: string; topicId: string | null },
): Promise<string> =>
  `${deps.config.PUBLIC_BASE_URL}/unsubscribe/${await signLink(deps, { kind: 'u', teamId: input.teamId, email: input.email.toLowerCase(), topicId: input.topicId ?? undefined })}`;

/** The secret, non-expiring preference page URL of a contact. */
export const preferencesUrl = async (deps: Deps, input: { teamId: string; contactId: string }): Promise<string> =>
  `${deps.config.PUBLIC_BASE_URL}/preferences/${await signLink(deps, { kind: 'p', teamId: input.teamId, contactId: input.contactId })}`;
