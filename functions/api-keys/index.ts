import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as createApiKey } from './create-api-key.ts';

/** The api-keys Lambda: the refusal of key minting. */
export const handler = dispatch({ 'POST /api-keys': createApiKey });
