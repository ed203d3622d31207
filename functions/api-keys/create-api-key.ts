import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { ApiError } from '@mailstack/core/errors/api-error';

/**
 * POST /api-keys: refused on purpose (spec §5: keys are created only by a person; no endpoint
 * mints keys). Served so the SDK's `apiKeys.create` gets a 403 that says what to do instead.
 */
export const handler = apiRoute({
  access: 'full',
  response: v.never(),
  errors: ['forbidden'],
  body: v.unknown(),
  handler: async () => {
    throw new ApiError(
      'forbidden',
      'API keys are not created through the API: a person creates them with the operator CLI (`npm run admin -- keys create --team <team-id>`) or the dashboard.',
    );
  },
});
