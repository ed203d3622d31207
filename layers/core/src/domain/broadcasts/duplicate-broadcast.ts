import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { putBroadcast, readBroadcast, type BroadcastItem } from '../../table/broadcasts.ts';

/** Copies a broadcast (any status) into a new draft. */
export const duplicateBroadcast = async (deps: Deps, teamId: string, id: string): Promise<BroadcastItem> => {
  const b = await readBroadcast(deps, teamId, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  const now = new Date(deps.clock.now()).toISOString();
  const copy: BroadcastItem = {
    id: deps.ids.next(),
    team_id: teamId,
    name: b.name,
    segment_id: b.segment_id,
    topic_id: b.topic_id,
    from: b.from,
    subject: b.subject,
    reply_to: b.reply_to,
    preview_text: b.preview_text,
    html: b.html,
    text: b.text,
    template_variables: b.template_variables,
    status: 'draft',
    created_at: now,
    updated_at: now,
    scheduled_at: null,
    sent_at: null,
  };
  await putBroadcast(deps, copy);
  return copy;
};
