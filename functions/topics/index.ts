import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as createTopic } from './create-topic.ts';
import { handler as listTopics } from './list-topics.ts';
import { handler as getTopic } from './get-topic.ts';
import { handler as updateTopic } from './update-topic.ts';
import { handler as deleteTopic } from './delete-topic.ts';

/** The topics Lambda. */
export const handler = dispatch({
  'POST /topics': createTopic,
  'GET /topics': listTopics,
  'GET /topics/{id}': getTopic,
  'PATCH /topics/{id}': updateTopic,
  'DELETE /topics/{id}': deleteTopic,
});
