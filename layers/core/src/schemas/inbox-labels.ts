import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import { InboxParams, ThreadLabel, ThreadParams } from './inboxes.ts';

const LabelName = v.pipe(
  v.string('is required: the label name.'),
  v.trim(),
  v.minLength(1, 'is required: the label name.'),
  v.maxLength(50, 'must be at most 50 characters.'),
);
const LabelColor = v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex color, #RRGGBB (#E93D82).'));

/** POST /inboxes/{id}/labels */
export const CreateInboxLabelRequest = v.strictObject({ name: LabelName, color: v.optional(LabelColor) });

/** PATCH /inboxes/{id}/labels/{label_id} */
export const UpdateInboxLabelRequest = v.pipe(
  v.strictObject({ name: v.optional(LabelName), color: v.optional(LabelColor) }),
  v.check((b) => b.name !== undefined || b.color !== undefined, 'Give `name`, `color` or both.'),
);

/** The path of a label's routes. */
export const LabelParams = v.object({
  ...InboxParams.entries,
  label_id: v.pipe(v.string(), v.uuid('must be the id of a label of the inbox.')),
});

/** The path of a thread label's route. */
export const ThreadLabelParams = v.object({ ...ThreadParams.entries, label_id: LabelParams.entries.label_id });

/** A label of an inbox (the SDK's `InboxLabel`). */
export const InboxLabelObject = v.object({ id: Id, name: v.string(), color: v.string(), created_at: Timestamp });

const LabelIds = (min: number) =>
  v.pipe(
    v.array(v.pipe(v.string(), v.uuid('must each be a label id of the inbox.')), 'is required: a list of label ids.'),
    v.minLength(min, `must name at least ${min} label.`),
    v.maxLength(20, 'may name at most 20 labels.'),
  );

/** POST /inboxes/{id}/threads/{thread_id}/labels: 1 to 10 more labels. */
export const AddThreadLabelsRequest = v.strictObject({
  labels: v.pipe(LabelIds(1), v.maxLength(10, 'may add at most 10 labels at once.')),
});

/** PUT /inboxes/{id}/threads/{thread_id}/labels: the thread's labels, all of them ([] for none). */
export const SetThreadLabelsRequest = v.strictObject({ labels: LabelIds(0) });

/** A thread's labels, as its label routes answer them. */
export const ThreadLabelList = v.object({ object: v.literal('list'), data: v.array(ThreadLabel) });
