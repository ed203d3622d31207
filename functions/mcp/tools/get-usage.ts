import { handler } from '../../usage/get-usage.ts';
import { routeTool } from '../tool.ts';

/** GET /usage */
export const tool = routeTool({
  name: 'get_usage',
  scope: 'emails:read',
  route: 'GET /usage',
  handler,
  description:
    "Get the team's plan and usage: emails sent today and this month against the plan's allowances, and counts of domains and contacts against their caps.",
});
