import { receivedAttachmentView } from './received-email.ts';
import { getReceivedMessage } from './get-received-message.ts';
import type { Deps } from '../../runtime/deps.ts';
import { pageOf, type Page, type PageRequest } from '../paging.ts';

/** A page of a received email's attachments, in message order, with download links. */
export const listReceivedAttachments = async (
  deps: Deps,
  teamId: string,
  id: string,
  page: PageRequest,
  within?: readonly string[],
): Promise<Page<Awaited<ReturnType<typeof receivedAttachmentView>>>> => {
  const m = await getReceivedMessage(deps, teamId, id, within);
  const { items, hasMore } = pageOf(m.attachments, page);
  return { items: await Promise.all(items.map((a) => receivedAttachmentView(deps, m, a))), hasMore };
};
