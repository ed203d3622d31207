import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createAutomation } from './create-automation.ts';
import { handler as listAutomations } from './list-automations.ts';
import { handler as getAutomation } from './get-automation.ts';
import { handler as updateAutomation } from './update-automation.ts';
import { handler as deleteAutomation } from './delete-automation.ts';
import { handler as duplicateAutomation } from './duplicate-automation.ts';
import { handler as stopAutomation } from './stop-automation.ts';
import { handler as listAutomationRuns } from './list-automation-runs.ts';
import { handler as getAutomationRun } from './get-automation-run.ts';
import { handler as createEvent } from './create-event.ts';
import { handler as listEvents } from './list-events.ts';
import { handler as getEvent } from './get-event.ts';
import { handler as updateEvent } from './update-event.ts';
import { handler as deleteEvent } from './delete-event.ts';
import { handler as sendEvent } from './send-event.ts';

/** The automations Lambda: automations, their runs, and the custom events that start them (the SDK's `events`). Its routes come from the route manifest. */
export const handler = dispatch(
  areaRoutes('automations', {
    'create-automation': createAutomation,
    'list-automations': listAutomations,
    'get-automation': getAutomation,
    'update-automation': updateAutomation,
    'delete-automation': deleteAutomation,
    'duplicate-automation': duplicateAutomation,
    'stop-automation': stopAutomation,
    'list-automation-runs': listAutomationRuns,
    'get-automation-run': getAutomationRun,
    'create-event': createEvent,
    'list-events': listEvents,
    'get-event': getEvent,
    'update-event': updateEvent,
    'delete-event': deleteEvent,
    'send-event': sendEvent,
  }),
);
