import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as getOpenApi } from './get-openapi.ts';

/** The openapi Lambda. */
export const handler = dispatch({ 'GET /openapi.json': getOpenApi });
