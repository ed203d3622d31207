import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as createContactProperty } from './create-contact-property.ts';
import { handler as listContactProperties } from './list-contact-properties.ts';
import { handler as getContactProperty } from './get-contact-property.ts';
import { handler as updateContactProperty } from './update-contact-property.ts';
import { handler as deleteContactProperty } from './delete-contact-property.ts';

/** The contact-properties Lambda. */
export const handler = dispatch({
  'POST /contact-properties': createContactProperty,
  'GET /contact-properties': listContactProperties,
  'GET /contact-properties/{id}': getContactProperty,
  'PATCH /contact-properties/{id}': updateContactProperty,
  'DELETE /contact-properties/{id}': deleteContactProperty,
});
