import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createContact } from './create-contact.ts';
import { handler as listContacts } from './list-contacts.ts';
import { handler as getContact } from './get-contact.ts';
import { handler as updateContact } from './update-contact.ts';
import { handler as deleteContact } from './delete-contact.ts';
import { handler as batchCreateContacts } from './batch-create-contacts.ts';
import { handler as batchGetContacts } from './batch-get-contacts.ts';
import { handler as batchRemoveContacts } from './batch-remove-contacts.ts';
import { handler as listContactSegments } from './list-contact-segments.ts';
import { handler as addContactSegment } from './add-contact-segment.ts';
import { handler as removeContactSegment } from './remove-contact-segment.ts';
import { handler as listContactTopics } from './list-contact-topics.ts';
import { handler as updateContactTopics } from './update-contact-topics.ts';
import { handler as createPreferencesLink } from './create-preferences-link.ts';
import { handler as createAudienceContact } from './create-audience-contact.ts';
import { handler as listSegmentContacts } from './list-segment-contacts.ts';
import { handler as getAudienceContact } from './get-audience-contact.ts';
import { handler as updateAudienceContact } from './update-audience-contact.ts';
import { handler as deleteAudienceContact } from './delete-audience-contact.ts';

/** The contacts Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('contacts', {
    'create-contact': createContact,
    'list-contacts': listContacts,
    'get-contact': getContact,
    'update-contact': updateContact,
    'delete-contact': deleteContact,
    'batch-create-contacts': batchCreateContacts,
    'batch-get-contacts': batchGetContacts,
    'batch-remove-contacts': batchRemoveContacts,
    'list-contact-segments': listContactSegments,
    'add-contact-segment': addContactSegment,
    'remove-contact-segment': removeContactSegment,
    'list-contact-topics': listContactTopics,
    'update-contact-topics': updateContactTopics,
    'create-preferences-link': createPreferencesLink,
    'create-audience-contact': createAudienceContact,
    'list-segment-contacts': listSegmentContacts,
    'get-audience-contact': getAudienceContact,
    'update-audience-contact': updateAudienceContact,
    'delete-audience-contact': deleteAudienceContact,
  }),
);
