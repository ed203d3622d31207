import type * as v from 'valibot';
import * as automations from '@mailstack/core/schemas/automations';
import * as broadcasts from '@mailstack/core/schemas/broadcasts';
import * as contacts from '@mailstack/core/schemas/contacts';
import * as customEvents from '@mailstack/core/schemas/custom-events';
import * as domains from '@mailstack/core/schemas/domains';
import * as emails from '@mailstack/core/schemas/emails';
import * as inboxDrafts from '@mailstack/core/schemas/inbox-drafts';
import * as inboxLabels from '@mailstack/core/schemas/inbox-labels';
import * as inboxes from '@mailstack/core/schemas/inboxes';
import * as receiving from '@mailstack/core/schemas/receiving';
import * as suppressions from '@mailstack/core/schemas/suppressions';
import * as templates from '@mailstack/core/schemas/templates';
import * as topics from '@mailstack/core/schemas/topics';
import * as webhooks from '@mailstack/core/schemas/webhooks';
import {
  BroadcastClickedLink,
  BroadcastObject,
  BroadcastRecipientRow,
  BroadcastRow,
  CanceledBroadcast,
  PlanWarningObject,
  SentBroadcast,
} from '@mailstack/core/schemas/broadcasts';
import {
  AudienceObject,
  BatchCreatedContacts,
  BatchGotContacts,
  BatchRemovedContacts,
  ContactListItem,
  ContactObject,
  ContactPropertyObject,
  ContactSegmentLink,
  ContactSegmentUnlinked,
  ContactTopic,
  ContactTopicsUpdated,
  CreatedSegment,
  DeletedContact,
  DeletedSegment,
  PreferencesLink,
  SegmentObject,
  SegmentOrAudience,
  SegmentRow,
} from '@mailstack/core/schemas/contacts';
import {
  AutomationObject,
  AutomationRow,
  AutomationRunObject,
  AutomationRunRow,
  StoppedAutomation,
} from '@mailstack/core/schemas/automations';
import { EventObject, EventRow, SentEvent } from '@mailstack/core/schemas/custom-events';
import {
  CreatedDomain,
  DomainClaimObject,
  DomainObject,
  DomainRecord,
  DomainSummary,
} from '@mailstack/core/schemas/domains';
import { EmailObject, RescheduledEmail, SentBatch, SentEmail } from '@mailstack/core/schemas/emails';
import {
  AuthorizationServerMetadata,
  ClientRegistration,
  OAuthGrantRow,
  ProtectedResourceMetadata,
  RevokedGrant,
  TokenResponse,
} from '@mailstack/core/schemas/oauth';
import { InboxDraftObject, InboxDraftRow } from '@mailstack/core/schemas/inbox-drafts';
import { InboxLabelObject } from '@mailstack/core/schemas/inbox-labels';
import {
  InboxEmailObject,
  InboxObject,
  InboxRow,
  InboxThreadObject,
  InboxThreadRow,
  InboxThreadSearchRow,
} from '@mailstack/core/schemas/inboxes';
import {
  InboundAttachment,
  ReceivedAttachmentObject,
  ReceivedAttachmentRow,
  ReceivedEmailObject,
  ReceivedEmailRow,
} from '@mailstack/core/schemas/receiving';
import {
  BatchAddedSuppressions,
  BatchRemovedSuppressions,
  SuppressionObject,
} from '@mailstack/core/schemas/suppressions';
import { LogObject, LogRow } from '@mailstack/core/schemas/logs';
import { TemplateObject, TemplateRow } from '@mailstack/core/schemas/templates';
import { TopicObject, TopicRow } from '@mailstack/core/schemas/topics';
import { UsageObject } from '@mailstack/core/schemas/usage';
import { EmailMetricsObject, EmailMetricsRow } from '@mailstack/core/schemas/metrics';
import {
  CreatedWebhook,
  RotatedWebhook,
  WebhookEventAttempt,
  WebhookEventObject,
  WebhookEventRow,
  WebhookObject,
  WebhookRow,
} from '@mailstack/core/schemas/webhooks';

/**
 * The answer schemas GET /openapi.json names under components.schemas: each resource object
 * (`Email`), its list row (`EmailSummary`) and the other answers several routes share. A route
 * answering one of these exact schemas refers to it with `$ref`; a list of one is named too
 * (`TopicList`). A generated client gets a type of each name.
 */
export const COMPONENT_SCHEMAS: Readonly<Record<string, v.GenericSchema>> = {
  Email: EmailObject,
  SentEmail,
  SentBatch,
  RescheduledEmail,
  Domain: DomainObject,
  DomainSummary,
  DomainRecord,
  CreatedDomain,
  DomainClaim: DomainClaimObject,
  Usage: UsageObject,
  EmailMetrics: EmailMetricsObject,
  EmailMetricsDataRow: EmailMetricsRow,
  Contact: ContactObject,
  ContactSummary: ContactListItem,
  DeletedContact,
  ContactTopic,
  ContactTopicsUpdated,
  ContactSegmentLink,
  ContactSegmentUnlinked,
  PreferencesLink,
  BatchCreatedContacts,
  BatchGotContacts,
  BatchRemovedContacts,
  ContactProperty: ContactPropertyObject,
  Segment: SegmentObject,
  SegmentSummary: SegmentRow,
  Audience: AudienceObject,
  SegmentOrAudience,
  CreatedSegment,
  DeletedSegment,
  Topic: TopicObject,
  TopicSummary: TopicRow,
  Suppression: SuppressionObject,
  BatchAddedSuppressions,
  BatchRemovedSuppressions,
  Template: TemplateObject,
  TemplateSummary: TemplateRow,
  Broadcast: BroadcastObject,
  BroadcastSummary: BroadcastRow,
  SentBroadcast,
  CanceledBroadcast,
  PlanWarning: PlanWarningObject,
  BroadcastRecipient: BroadcastRecipientRow,
  BroadcastClickedLink,
  Webhook: WebhookObject,
  WebhookSummary: WebhookRow,
  CreatedWebhook,
  RotatedWebhook,
  WebhookEvent: WebhookEventObject,
  WebhookEventSummary: WebhookEventRow,
  WebhookEventAttempt,
  ReceivedEmail: ReceivedEmailObject,
  ReceivedEmailSummary: ReceivedEmailRow,
  InboundAttachment,
  ReceivedAttachment: ReceivedAttachmentObject,
  ReceivedAttachmentSummary: ReceivedAttachmentRow,
  Inbox: InboxObject,
  InboxSummary: InboxRow,
  InboxThread: InboxThreadObject,
  InboxThreadSummary: InboxThreadRow,
  InboxThreadSearchResult: InboxThreadSearchRow,
  InboxEmail: InboxEmailObject,
  InboxDraft: InboxDraftObject,
  InboxDraftSummary: InboxDraftRow,
  InboxLabel: InboxLabelObject,
  OAuthGrant: OAuthGrantRow,
  RevokedGrant,
  TokenResponse,
  ClientRegistration,
  ProtectedResourceMetadata,
  AuthorizationServerMetadata,
  Log: LogObject,
  LogSummary: LogRow,
  Event: EventObject,
  EventSummary: EventRow,
  SentEvent,
  Automation: AutomationObject,
  AutomationSummary: AutomationRow,
  StoppedAutomation,
  AutomationRun: AutomationRunObject,
  AutomationRunSummary: AutomationRunRow,
};

/**
 * The request bodies GET /openapi.json names: every `...Request` schema of the API's schema
 * modules (`SendEmailRequest`, `CreateContactRequest`, ...), under its export's name; a route
 * whose body is one refers to it.
 */
export const REQUEST_SCHEMAS: Readonly<Record<string, v.GenericSchema>> = Object.fromEntries(
  [
    automations,
    broadcasts,
    contacts,
    customEvents,
    domains,
    emails,
    inboxDrafts,
    inboxLabels,
    inboxes,
    receiving,
    suppressions,
    templates,
    topics,
    webhooks,
  ]
    .flatMap((module) => Object.entries<unknown>(module))
    .filter(
      (entry): entry is [string, v.GenericSchema] =>
        entry[0].endsWith('Request') && (entry[1] as { kind?: unknown } | null)?.kind === 'schema',
    ),
);
