import { handler } from '../../contacts/update-contact-topics.ts';
import { routeTool } from '../tool.ts';
import { SUBSCRIPTIONS } from '@mailstack/core/domain/topics/vocabulary';

const SUBSCRIPTION = SUBSCRIPTIONS.map((s) => `'${s}'`).join(' | ');

/** PATCH /contacts/{id}/topics */
export const tool = routeTool({
  name: 'update_contact_topics',
  scope: 'audience:write',
  route: 'PATCH /contacts/{id}/topics',
  handler,
  description: `Set a contact's subscription to topics: a list of {id: topic id, subscription: ${SUBSCRIPTION}}. Topics not named keep their current choice.`,
  bodyArgument: {
    name: 'topics',
    description: `The choices: an array of {id, subscription: ${SUBSCRIPTION}} (or an object {topics: [...]}).`,
  },
});
