import { handle } from 'hono/aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { createDashboard } from './app.ts';

/** The dashboard Lambda, behind its own HTTP API (its own origin). */
export const handler = handle(createDashboard({ deps: getDeps }));
