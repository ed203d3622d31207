import type { Deps } from '../../runtime/deps.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { readBroadcast, recipientPage } from '../../table/broadcasts.ts';

/** The recipient-row statuses each recipient type of the SDK covers. */
const STATUSES: Record<string, readonly string[]> = {
  sent: ['sent', 'delivered', 'bounced', 'complained'],
  delivered: ['delivered', 'complained'],
  bounced: ['bounced'],
  complained: ['complained'],
  unsubscribed: ['unsubscribed', 'opted_out'],
  suppressed: ['suppressed'],
  opened: [],
  clicked: [],
};

/**
 * GET /broadcasts/{id}/recipients: the recipients with one outcome (sent, delivered, bounced,
 * complained, unsubscribed (skipped as unsubscribed or opted out of the topic), suppressed), in
 * contact order; a row's `id` (the cursor `after` takes) is its contact's id. Opens and clicks are not tracked, so those lists are empty.
 */
export const listRecipients = async (deps: Deps, teamId: string, id: string, query: { type: string; email?: string | undefined; limit: number; after?: string | undefined; before?: string | undefined }) => {
  if (!(await readBroadcast(deps, teamId, id, false))) throw notFound(`Broadcast ${id}`);
  if (query.before) throw validationError('`before` is not supported on this list; page forward with `after`.');
  const statuses = STATUSES[query.type]!;
  if (statuses.length === 0) return { object: 'list' as const, has_more: false, data: [] };
  const { rows, hasMore } = await recipientPage(deps, teamId, id, statuses, query.after ?? null, query.limit, query.email);
  return {
    object: 'list' as const,
    has_more: hasMore,
    data: rows.map((r) => ({ id: r.contact_id as string, contact_id: r.contact_id as string, email: r.email as string, ...(r.status === 'bounced' ? { bounce_type: 'permanent' } : {}) })),
  };
};
