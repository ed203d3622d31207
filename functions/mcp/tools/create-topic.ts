import { handler } from '../../topics/create-topic.ts';
import { routeTool } from '../tool.ts';

/** POST /topics */
export const tool = routeTool({
  name: 'create_topic',
  scope: 'audience:write',
  route: 'POST /topics',
  handler,
  description:
    "Create a topic contacts can subscribe to or opt out of (name, default_subscription 'opt_in' or 'opt_out', optional description and visibility on the preferences page).",
});
