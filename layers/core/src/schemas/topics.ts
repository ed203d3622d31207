import * as v from 'valibot';
import { TopicChoice } from './contacts.ts';
import { Id, Timestamp } from './common.ts';
import { SUBSCRIPTIONS, TOPIC_VISIBILITIES } from '../domain/topics/vocabulary.ts';

/** POST /topics */
export const CreateTopicRequest = v.strictObject({
  name: v.pipe(
    v.string('is required.'),
    v.minLength(1, 'is required.'),
    v.maxLength(50, 'must be at most 50 characters.'),
  ),
  default_subscription: v.picklist(SUBSCRIPTIONS, 'is required: `opt_in` or `opt_out`.'),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters.')))),
  visibility: v.optional(v.picklist(TOPIC_VISIBILITIES, 'must be `public` or `private`.')),
});

/** PATCH /topics/{id}: the SDK sends the whole options object, `id` included (the HTTP stack checks it against the path). */
export const UpdateTopicRequest = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(50, 'must be at most 50 characters.'))),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters.')))),
  visibility: v.optional(v.picklist(TOPIC_VISIBILITIES, 'must be `public` or `private`.')),
  default_subscription: v.optional(
    v.custom<never>(() => false, "a topic's default subscription cannot change; create a new topic."),
  ),
});

/** PATCH /contacts/{id}/topics: a bare array (as every SDK sends) or {topics: [...]}. */
export const UpdateContactTopicsRequest = v.pipe(
  v.union(
    [v.array(TopicChoice), v.strictObject({ topics: v.array(TopicChoice) })],
    'must be an array of {id, subscription} (or {topics: [...]}).',
  ),
  v.transform((b) => (Array.isArray(b) ? b : b.topics)),
);

/** A topic as lists show it. */
export const TopicRow = v.object({
  id: Id,
  name: v.string(),
  description: v.nullable(v.string()),
  default_subscription: v.picklist(SUBSCRIPTIONS),
  visibility: v.picklist(TOPIC_VISIBILITIES),
  created_at: Timestamp,
});
/** GET /topics/{id} and POST /topics */
export const TopicObject = v.object({ object: v.literal('topic'), ...TopicRow.entries });
