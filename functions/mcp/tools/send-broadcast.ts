import { handler } from '../../broadcasts/send-broadcast.ts';
import { routeTool } from '../tool.ts';

/** POST /broadcasts/{id}/send */
export const tool = routeTool({
  name: 'send_broadcast',
  scope: 'broadcasts:write',
  route: 'POST /broadcasts/{id}/send',
  handler,
  description: 'Send a draft broadcast to its segment now, or at scheduled_at (ISO 8601 or natural language).',
});
