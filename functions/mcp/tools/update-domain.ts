import { handler } from '../../domains/update-domain.ts';
import { routeTool } from '../tool.ts';

/** PATCH /domains/{id} */
export const tool = routeTool({
  name: 'update_domain',
  scope: 'domains:write',
  route: 'PATCH /domains/{id}',
  handler,
  description: "Change a sending domain's settings: open_tracking, click_tracking, tracking_subdomain, capabilities.",
});
