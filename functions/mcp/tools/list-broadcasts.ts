import { handler } from '../../broadcasts/list-broadcasts.ts';
import { routeTool } from '../tool.ts';

/** GET /broadcasts */
export const tool = routeTool({
  name: 'list_broadcasts',
  scope: 'broadcasts:read',
  route: 'GET /broadcasts',
  handler,
  description:
    "List the team's broadcasts with their status (draft, scheduled, queued, sending, sent, canceled). Page with limit and after/before.",
});
