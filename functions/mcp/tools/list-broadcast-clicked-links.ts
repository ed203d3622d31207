import { handler } from '../../broadcasts/list-broadcast-clicked-links.ts';
import { routeTool } from '../tool.ts';

/** GET /broadcasts/{id}/clicked-links */
export const tool = routeTool({
  name: 'list_broadcast_clicked_links',
  scope: 'broadcasts:read',
  route: 'GET /broadcasts/{id}/clicked-links',
  handler,
  description:
    'List the links of a broadcast that recipients clicked, with total clicks and unique clickers per link (click tracking must be on for its sending domain). Page with limit and after/before.',
});
