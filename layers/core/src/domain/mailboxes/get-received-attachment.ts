import { receivedAttachmentView } from './received-email.ts';
import { getReceivedMessage } from './get-received-message.ts';
import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';

/** One attachment of a received email. */
export const getReceivedAttachment = async (
  deps: Deps,
  teamId: string,
  id: string,
  attachmentId: string,
  within?: readonly string[],
) => {
  const m = await getReceivedMessage(deps, teamId, id, within);
  const a = m.attachments.find((x) => x.id === attachmentId);
  if (!a) throw notFound('Attachment');
  return { object: 'attachment' as const, ...(await receivedAttachmentView(deps, m, a)) };
};
