import { dispatch } from '@mailstack/core/http/dispatch';
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
import { handler as listAudienceContacts } from './list-audience-contacts.ts';
import { handler as listSegmentContacts } from './list-segment-contacts.ts';
import { handler as getAudienceContact } from './get-audience-contact.ts';
import { handler as updateAudienceContact } from './update-audience-contact.ts';
import { handler as deleteAudienceContact } from './delete-audience-contact.ts';

/** The contacts Lambda. */
export const handler = dispatch({
  'POST /contacts': createContact,
  'GET /contacts': listContacts,
  'GET /contacts/{id}': getContact,
  'PATCH /contacts/{id}': updateContact,
  'DELETE /contacts/{id}': deleteContact,
  'POST /contacts/batch': batchCreateContacts,
  'POST /contacts/batch/get': batchGetContacts,
  'POST /contacts/batch/remove': batchRemoveContacts,
  'GET /contacts/{id}/segments': listContactSegments,
  'POST /contacts/{id}/segments/{segment_id}': addContactSegment,
  'DELETE /contacts/{id}/segments/{segment_id}': removeContactSegment,
  'GET /contacts/{id}/topics': listContactTopics,
  'PATCH /contacts/{id}/topics': updateContactTopics,
  'POST /contacts/{id}/preferences-link': createPreferencesLink,
  'POST /audiences/{id}/contacts': createAudienceContact,
  'GET /audiences/{id}/contacts': listAudienceContacts,
  'GET /segments/{id}/contacts': listSegmentContacts,
  'GET /audiences/{id}/contacts/{contact_id}': getAudienceContact,
  'PATCH /audiences/{id}/contacts/{contact_id}': updateAudienceContact,
  'DELETE /audiences/{id}/contacts/{contact_id}': deleteAudienceContact,
});
