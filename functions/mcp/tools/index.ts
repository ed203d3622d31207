import { createMailboxTool, deleteMailboxTool, listMailboxesTool, renameMailboxTool } from './mailboxes.ts';
import { tool as sendEmail } from './send-email.ts';
import { tool as sendBatchEmails } from './send-batch-emails.ts';
import { tool as listEmails } from './list-emails.ts';
import { tool as getEmailMetrics } from './get-email-metrics.ts';
import { tool as getEmail } from './get-email.ts';
import { tool as listEmailAttachments } from './list-email-attachments.ts';
import { tool as getEmailAttachment } from './get-email-attachment.ts';
import { tool as updateEmail } from './update-email.ts';
import { tool as cancelEmail } from './cancel-email.ts';
import { tool as shareEmail } from './share-email.ts';
import { tool as deleteEmail } from './delete-email.ts';
import { tool as createDomain } from './create-domain.ts';
import { tool as listDomains } from './list-domains.ts';
import { tool as getDomain } from './get-domain.ts';
import { tool as updateDomain } from './update-domain.ts';
import { tool as deleteDomain } from './delete-domain.ts';
import { tool as verifyDomain } from './verify-domain.ts';
import { tool as getUsage } from './get-usage.ts';
import { tool as listLogs } from './list-logs.ts';
import { tool as getLog } from './get-log.ts';
import { tool as createContact } from './create-contact.ts';
import { tool as listContacts } from './list-contacts.ts';
import { tool as getContact } from './get-contact.ts';
import { tool as updateContact } from './update-contact.ts';
import { tool as deleteContact } from './delete-contact.ts';
import { tool as batchCreateContacts } from './batch-create-contacts.ts';
import { tool as batchGetContacts } from './batch-get-contacts.ts';
import { tool as batchRemoveContacts } from './batch-remove-contacts.ts';
import { tool as listContactSegments } from './list-contact-segments.ts';
import { tool as addContactToSegment } from './add-contact-to-segment.ts';
import { tool as removeContactFromSegment } from './remove-contact-from-segment.ts';
import { tool as listContactTopics } from './list-contact-topics.ts';
import { tool as updateContactTopics } from './update-contact-topics.ts';
import { tool as createPreferencesLink } from './create-preferences-link.ts';
import { tool as listSegmentContacts } from './list-segment-contacts.ts';
import { tool as createSegment } from './create-segment.ts';
import { tool as listSegments } from './list-segments.ts';
import { tool as getSegment } from './get-segment.ts';
import { tool as updateSegment } from './update-segment.ts';
import { tool as deleteSegment } from './delete-segment.ts';
import { tool as createContactProperty } from './create-contact-property.ts';
import { tool as listContactProperties } from './list-contact-properties.ts';
import { tool as getContactProperty } from './get-contact-property.ts';
import { tool as updateContactProperty } from './update-contact-property.ts';
import { tool as deleteContactProperty } from './delete-contact-property.ts';
import { tool as createTopic } from './create-topic.ts';
import { tool as listTopics } from './list-topics.ts';
import { tool as getTopic } from './get-topic.ts';
import { tool as updateTopic } from './update-topic.ts';
import { tool as deleteTopic } from './delete-topic.ts';
import { tool as addSuppression } from './add-suppression.ts';
import { tool as listSuppressions } from './list-suppressions.ts';
import { tool as getSuppression } from './get-suppression.ts';
import { tool as removeSuppression } from './remove-suppression.ts';
import { tool as batchAddSuppressions } from './batch-add-suppressions.ts';
import { tool as batchRemoveSuppressions } from './batch-remove-suppressions.ts';
import { tool as createTemplate } from './create-template.ts';
import { tool as listTemplates } from './list-templates.ts';
import { tool as getTemplate } from './get-template.ts';
import { tool as updateTemplate } from './update-template.ts';
import { tool as deleteTemplate } from './delete-template.ts';
import { tool as publishTemplate } from './publish-template.ts';
import { tool as duplicateTemplate } from './duplicate-template.ts';
import { tool as createBroadcast } from './create-broadcast.ts';
import { tool as listBroadcasts } from './list-broadcasts.ts';
import { tool as getBroadcast } from './get-broadcast.ts';
import { tool as updateBroadcast } from './update-broadcast.ts';
import { tool as deleteBroadcast } from './delete-broadcast.ts';
import { tool as sendBroadcast } from './send-broadcast.ts';
import { tool as cancelBroadcast } from './cancel-broadcast.ts';
import { tool as duplicateBroadcast } from './duplicate-broadcast.ts';
import { tool as listBroadcastRecipients } from './list-broadcast-recipients.ts';
import { tool as listBroadcastClickedLinks } from './list-broadcast-clicked-links.ts';
import { tool as createWebhook } from './create-webhook.ts';
import { tool as listWebhooks } from './list-webhooks.ts';
import { tool as getWebhook } from './get-webhook.ts';
import { tool as updateWebhook } from './update-webhook.ts';
import { tool as deleteWebhook } from './delete-webhook.ts';
import { tool as rotateWebhookSecret } from './rotate-webhook-secret.ts';
import { tool as listWebhookEvents } from './list-webhook-events.ts';
import { tool as getWebhookEvent } from './get-webhook-event.ts';
import { tool as listWebhookEventAttempts } from './list-webhook-event-attempts.ts';
import { tool as replayWebhookEvent } from './replay-webhook-event.ts';
import { tool as listReceivedEmails } from './list-received-emails.ts';
import {
  getInboxThreadEmailTool,
  getInboxThreadTool,
  listInboxLabelsTool,
  listInboxThreadEmailsTool,
  listInboxThreadsTool,
  searchInboxThreadsTool,
} from './inbox-threads.ts';
import { tool as getReceivedEmail } from './get-received-email.ts';
import { tool as listReceivedAttachments } from './list-received-attachments.ts';
import { tool as getReceivedAttachment } from './get-received-attachment.ts';
import { tool as saveMailboxDraft } from './save-mailbox-draft.ts';
import { tool as sendMailboxDraft } from './send-mailbox-draft.ts';
import { tool as createEvent } from './create-event.ts';
import { tool as listEvents } from './list-events.ts';
import { tool as getEvent } from './get-event.ts';
import { tool as updateEvent } from './update-event.ts';
import { tool as deleteEvent } from './delete-event.ts';
import { tool as sendEvent } from './send-event.ts';
import { tool as createAutomation } from './create-automation.ts';
import { tool as listAutomations } from './list-automations.ts';
import { tool as getAutomation } from './get-automation.ts';
import { tool as updateAutomation } from './update-automation.ts';
import { tool as deleteAutomation } from './delete-automation.ts';
import { tool as duplicateAutomation } from './duplicate-automation.ts';
import { tool as stopAutomation } from './stop-automation.ts';
import { tool as listAutomationRuns } from './list-automation-runs.ts';
import { tool as getAutomationRun } from './get-automation-run.ts';
import type { McpTool, RouteTool } from '../tool.ts';

/** The tools of the hosted MCP server that run a REST route, one per REST capability (test/unit/mcp/tool-coverage.test.ts holds them to the route manifest). */
export const ROUTE_TOOLS: readonly RouteTool[] = [
  sendEmail,
  sendBatchEmails,
  listEmails,
  getEmail,
  getEmailMetrics,
  listEmailAttachments,
  getEmailAttachment,
  updateEmail,
  cancelEmail,
  shareEmail,
  deleteEmail,
  createDomain,
  listDomains,
  getDomain,
  updateDomain,
  deleteDomain,
  verifyDomain,
  getUsage,
  listLogs,
  getLog,
  createContact,
  listContacts,
  getContact,
  updateContact,
  deleteContact,
  batchCreateContacts,
  batchGetContacts,
  batchRemoveContacts,
  listContactSegments,
  addContactToSegment,
  removeContactFromSegment,
  listContactTopics,
  updateContactTopics,
  createPreferencesLink,
  listSegmentContacts,
  createSegment,
  listSegments,
  getSegment,
  updateSegment,
  deleteSegment,
  createContactProperty,
  listContactProperties,
  getContactProperty,
  updateContactProperty,
  deleteContactProperty,
  createTopic,
  listTopics,
  getTopic,
  updateTopic,
  deleteTopic,
  addSuppression,
  listSuppressions,
  getSuppression,
  removeSuppression,
  batchAddSuppressions,
  batchRemoveSuppressions,
  createTemplate,
  listTemplates,
  getTemplate,
  updateTemplate,
  deleteTemplate,
  publishTemplate,
  duplicateTemplate,
  createBroadcast,
  listBroadcasts,
  getBroadcast,
  updateBroadcast,
  deleteBroadcast,
  sendBroadcast,
  cancelBroadcast,
  duplicateBroadcast,
  listBroadcastRecipients,
  listBroadcastClickedLinks,
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookEvents,
  getWebhookEvent,
  listWebhookEventAttempts,
  replayWebhookEvent,
  listReceivedEmails,
  getReceivedEmail,
  listReceivedAttachments,
  getReceivedAttachment,
  listInboxThreadsTool,
  searchInboxThreadsTool,
  getInboxThreadTool,
  listInboxThreadEmailsTool,
  getInboxThreadEmailTool,
  listInboxLabelsTool,
  createEvent,
  listEvents,
  getEvent,
  updateEvent,
  deleteEvent,
  sendEvent,
  createAutomation,
  listAutomations,
  getAutomation,
  updateAutomation,
  deleteAutomation,
  duplicateAutomation,
  stopAutomation,
  listAutomationRuns,
  getAutomationRun,
];

/**
 * The tools over mailboxes, which have no REST route: the team's mailboxes (mailboxes:*, the
 * dashboard's use cases) and a mailbox's drafts (mail:*, the mailbox agent's use cases).
 */
export const MAILBOX_TOOLS: readonly McpTool[] = [
  listMailboxesTool,
  createMailboxTool,
  renameMailboxTool,
  deleteMailboxTool,
  saveMailboxDraft,
  sendMailboxDraft,
];

/** Every tool of the hosted MCP server. */
export const TOOLS: readonly McpTool[] = [...ROUTE_TOOLS, ...MAILBOX_TOOLS];
