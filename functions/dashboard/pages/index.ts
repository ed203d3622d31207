import type { Hono } from 'hono';
import type { DashboardEnv } from '../app.ts';
import { registerOverview } from './overview.ts';
import { registerEmails } from './emails.ts';
import { registerAudience } from './audience.ts';
import { registerDomains } from './domains.ts';
import { registerMailboxes } from './mailboxes.ts';
import { activitySection, approvalsSection, registerMailboxApprovals } from './mailbox-approvals.ts';
import { threadsSection } from './mailbox-threads.ts';
import { registerMailboxReader } from './mailbox-reader.ts';
import { registerApiKeys } from './api-keys.ts';
import { registerSettings } from './settings.ts';
import { registerWebhooks } from './webhooks.ts';
import { registerTemplates } from './templates.ts';
import { registerBroadcasts } from './broadcasts.ts';
import { registerConnections } from './connections.ts';
import { registerLogs } from './logs.ts';
import { registerAutomations } from './automations.ts';

/** Every page of a team (under /t/:team/), each calling the core's use cases. */
export const registerTeamPages = (app: Hono<DashboardEnv>): void => {
  registerOverview(app);
  registerEmails(app);
  registerBroadcasts(app);
  registerTemplates(app);
  registerAutomations(app);
  registerAudience(app);
  registerDomains(app);
  registerMailboxes(app, [threadsSection, approvalsSection, activitySection]);
  registerMailboxApprovals(app);
  registerMailboxReader(app);
  registerApiKeys(app);
  registerWebhooks(app);
  registerLogs(app);
  registerConnections(app);
  registerSettings(app);
};
