import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as getUsage } from './get-usage.ts';

/** The usage Lambda. */
export const handler = dispatch({ 'GET /usage': getUsage });
