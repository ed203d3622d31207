import { handler } from '../../contacts/batch-create-contacts.ts';
import { routeTool } from '../tool.ts';
import { CreateContactRequest } from '@mailstack/core/schemas/contacts';

/** POST /contacts/batch */
export const tool = routeTool({
  name: 'batch_create_contacts',
  scope: 'audience:write',
  route: 'POST /contacts/batch',
  handler,
  description:
    "Create up to 1,000 contacts in one call. on_conflict 'upsert' updates existing addresses instead of skipping them; batch_validation 'strict' refuses the batch on any invalid item, 'permissive' reports them by index.",
  bodyArgument: {
    name: 'contacts',
    description: 'The contacts to create, each with the fields of create_contact.',
    items: CreateContactRequest,
  },
});
