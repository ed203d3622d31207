import type { AreaHandler } from '@mailstack/core/http/dispatch';
import type { RestArea } from '../routes.ts';
import { handler as domains } from '../domains/index.ts';
import { handler as usage } from '../usage/index.ts';
import { handler as emails } from '../emails/index.ts';
import { handler as contacts } from '../contacts/index.ts';
import { handler as segments } from '../segments/index.ts';
import { handler as contactProperties } from '../contact-properties/index.ts';
import { handler as topics } from '../topics/index.ts';
import { handler as suppressions } from '../suppressions/index.ts';
import { handler as preferences } from '../preferences/index.ts';
import { handler as openapi } from './index.ts';
import { handler as apiKeys } from '../api-keys/index.ts';
import { handler as templates } from '../templates/index.ts';
import { handler as broadcasts } from '../broadcasts/index.ts';
import { handler as webhooks } from '../webhooks/index.ts';
import { handler as tracking } from '../tracking/index.ts';
import { handler as receiving } from '../receiving/index.ts';
import { handler as inboxes } from '../inboxes/index.ts';
import { handler as oauth } from '../oauth/index.ts';
import { handler as logs } from '../logs/index.ts';
import { handler as automations } from '../automations/index.ts';

/**
 * Every REST area's Lambda entry, imported statically so the description can be built inside a
 * bundled Lambda too. A new area must be added here (the type requires it), unless it speaks
 * another protocol (NON_REST_AREAS in functions/routes.ts).
 */
export const AREA_ENTRIES: Record<RestArea, AreaHandler> = {
  domains,
  usage,
  emails,
  contacts,
  segments,
  'contact-properties': contactProperties,
  topics,
  suppressions,
  preferences,
  openapi,
  'api-keys': apiKeys,
  templates,
  broadcasts,
  webhooks,
  tracking,
  receiving,
  inboxes,
  oauth,
  logs,
  automations,
};
