import { handler } from '../../broadcasts/create-broadcast.ts';
import { routeTool } from '../tool.ts';

/** POST /broadcasts */
export const tool = routeTool({
  name: 'create_broadcast',
  scope: 'broadcasts:write',
  route: 'POST /broadcasts',
  handler,
  description:
    'Create a broadcast (one email to every contact of a segment): segment_id, from, subject, html and/or text (or a template), optional topic_id to honour opt-outs. send: true sends it at once (or at scheduled_at); otherwise it stays a draft for send_broadcast.',
});
