import { handler } from '../../domains/create-domain.ts';
import { routeTool } from '../tool.ts';

/** POST /domains */
export const tool = routeTool({
  name: 'create_domain',
  scope: 'domains:write',
  route: 'POST /domains',
  handler,
  description:
    'Add a sending domain to the team. Returns the DNS records (DKIM, SPF, MAIL FROM) to publish; then call verify_domain. Optional open_tracking and click_tracking switches.',
});
