import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createTopic } from './create-topic.ts';
import { handler as listTopics } from './list-topics.ts';
import { handler as getTopic } from './get-topic.ts';
import { handler as updateTopic } from './update-topic.ts';
import { handler as deleteTopic } from './delete-topic.ts';

/** The topics Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('topics', {
    'create-topic': createTopic,
    'list-topics': listTopics,
    'get-topic': getTopic,
    'update-topic': updateTopic,
    'delete-topic': deleteTopic,
  }),
);
