import { handler } from '../../automations/update-event.ts';
import { routeTool } from '../tool.ts';

/** PATCH /events/{id} */
export const tool = routeTool({
  name: 'update_event',
  scope: 'automations:write',
  route: 'PATCH /events/{id}',
  handler,
  description: "Replace a custom event's payload schema (by id or name); null clears it.",
});
