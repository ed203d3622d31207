import { handler } from '../../contacts/update-contact-topics.ts';
import { routeTool } from '../tool.ts';

/** PATCH /contacts/{id}/topics */
export const tool = routeTool({
  name: 'update_contact_topics',
  scope: 'audience:write',
  route: 'PATCH /contacts/{id}/topics',
  handler,
  description:
    "Set a contact's subscription to topics: a list of {id: topic id, subscription: 'opt_in' | 'opt_out'}. Topics not named keep their current choice.",
  bodyArgument: {
    name: 'topics',
    description: "The choices: an array of {id, subscription: 'opt_in' | 'opt_out'} (or an object {topics: [...]}).",
  },
});
