import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createContactProperty } from './create-contact-property.ts';
import { handler as listContactProperties } from './list-contact-properties.ts';
import { handler as getContactProperty } from './get-contact-property.ts';
import { handler as updateContactProperty } from './update-contact-property.ts';
import { handler as deleteContactProperty } from './delete-contact-property.ts';

/** The contact-properties Lambda. Its routes and which handler answers each come from the route manifest. */
export const handler = dispatch(
  areaRoutes('contact-properties', {
    'create-contact-property': createContactProperty,
    'list-contact-properties': listContactProperties,
    'get-contact-property': getContactProperty,
    'update-contact-property': updateContactProperty,
    'delete-contact-property': deleteContactProperty,
  }),
);
