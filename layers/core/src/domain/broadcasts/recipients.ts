import type { Deps } from '../../runtime/deps.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import type { Page, PageRequest } from '../paging.ts';
import { linksOf, readBroadcast, recipientLinks, recipientPage, type RecipientFilter } from '../../table/broadcasts.ts';

/** The recipient rows each recipient type of the SDK covers: by status, or by a person's opens or clicks. */
const WHICH: Record<string, RecipientFilter> = {
  sent: { statuses: ['sent', 'delivered', 'bounced', 'complained'] },
  delivered: { statuses: ['delivered', 'complained'] },
  bounced: { statuses: ['bounced'] },
  complained: { statuses: ['complained'] },
  unsubscribed: { statuses: ['unsubscribed', 'opted_out'] },
  suppressed: { statuses: ['suppressed'] },
  opened: { engaged: 'opened' },
  clicked: { engaged: 'clicked' },
};

/**
 * GET /broadcasts/{id}/recipients: the recipients with one outcome (sent, delivered, bounced,
 * complained, unsubscribed (skipped as unsubscribed or opted out of the topic), suppressed) or
 * engagement (opened, with `count` opens; clicked, with `count` clicks and `clicked_links`), in
 * contact order; a row's `id` (the cursor `after` takes) is its contact's id. Opens and clicks are
 * a person's only: machine fetches (proxies, scanners, prefetchers) are not counted.
 */
export const listRecipients = async (
  deps: Deps,
  teamId: string,
  id: string,
  query: {
    type: string;
    email?: string | undefined;
    limit: number;
    after?: string | undefined;
    before?: string | undefined;
  },
) => {
  if (!(await readBroadcast(deps, teamId, id, false))) throw notFound(`Broadcast ${id}`);
  if (query.before) throw validationError('`before` is not supported on this list; page forward with `after`.');
  const which = WHICH[query.type]!;
  const { items: rows, hasMore } = await recipientPage(
    deps,
    teamId,
    id,
    which,
    query.after ?? null,
    query.limit,
    query.email,
  );
  const items = await Promise.all(
    rows.map(async (r) => ({
      id: r.contact_id as string,
      contact_id: r.contact_id as string,
      email: r.email as string,
      ...(r.status === 'bounced' && query.type === 'bounced' ? { bounce_type: 'permanent' as const } : {}),
      ...(query.type === 'opened' ? { count: Number(r.open_count) } : {}),
      ...(query.type === 'clicked'
        ? {
            count: Number(r.click_count),
            clicked_links: await recipientLinks(deps, teamId, id, r.contact_id as string),
          }
        : {}),
    })),
  );
  return { items, hasMore };
};

/**
 * GET /broadcasts/{id}/clicked-links: each link of the broadcast's mail a person clicked, with
 * its clicks and unique clickers, most clicked first; `id` (the cursor `after` takes) is opaque.
 */
export const listClickedLinks = async (
  deps: Deps,
  teamId: string,
  id: string,
  query: PageRequest,
): Promise<Page<{ id: string; url: string; clicks: number; unique_clicks: number }>> => {
  if (!(await readBroadcast(deps, teamId, id, false))) throw notFound(`Broadcast ${id}`);
  const links = (await linksOf(deps, teamId, id)).sort(
    (a, b) => b.clicks - a.clicks || b.uniqueClicks - a.uniqueClicks || a.url.localeCompare(b.url),
  );
  const cursor = query.after ?? query.before;
  const at = cursor ? links.findIndex((l) => l.linkId === cursor) : -1;
  if (cursor && at < 0)
    throw validationError(
      `\`${query.after ? 'after' : 'before'}\` must be the id of a row of this list; ${cursor} is not one.`,
    );
  const page = query.before
    ? links.slice(Math.max(0, at - query.limit), at)
    : links.slice(at + 1, at + 1 + query.limit);
  const hasMore = query.before ? at - query.limit > 0 : at + 1 + query.limit < links.length;
  return {
    items: page.map((l) => ({ id: l.linkId, url: l.url, clicks: l.clicks, unique_clicks: l.uniqueClicks })),
    hasMore,
  };
};
