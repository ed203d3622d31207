import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createApiKey } from './create-api-key.ts';

/** The api-keys Lambda: the refusal of key minting, dispatched from the route manifest. */
export const handler = dispatch(areaRoutes('api-keys', { 'create-api-key': createApiKey }));
