import { handler } from '../../domains/verify-domain.ts';
import { routeTool } from '../tool.ts';

/** POST /domains/{id}/verify */
export const tool = routeTool({
  name: 'verify_domain',
  scope: 'domains:write',
  route: 'POST /domains/{id}/verify',
  handler,
  description:
    "Start (or restart) verification of a sending domain's DNS records. Verification runs in the background: read the status later with get_domain.",
});
