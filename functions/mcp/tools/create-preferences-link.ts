import { handler } from '../../contacts/create-preferences-link.ts';
import { routeTool } from '../tool.ts';

/** POST /contacts/{id}/preferences-link */
export const tool = routeTool({
  name: 'create_preferences_link',
  scope: 'audience:write',
  route: 'POST /contacts/{id}/preferences-link',
  handler,
  description:
    'Create a signed link to the hosted page where the contact manages its topic subscriptions, to include in an email.',
});
