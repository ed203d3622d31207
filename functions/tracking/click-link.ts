import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { verifyTracking } from '@mailstack/core/domain/tracking/tokens';
import { recordClick } from '@mailstack/core/domain/tracking/record';
import { notFoundText, requesterOf } from './respond.ts';

/** GET /t/c/{token}: records the click and redirects to the original link, even when the email record is gone */
export const handler = apiRoute({
  access: 'public',
  response: v.never(),
  responseFormat: 'redirect',
  status: 302,
  params: v.object({ token: v.string() }),
  handler: async ({ deps, params, event, headers }) => {
    const claims = await verifyTracking(deps, params.token, 'c');
    if (!claims) return new RawResponse(notFoundText());
    try {
      await recordClick(deps, claims, requesterOf(event, headers));
    } catch (error) {
      // The person still gets where they were going.
      deps.logger.error('click not recorded', error as Error);
    }
    return new RawResponse({
      statusCode: 302,
      headers: { location: claims.url!, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      body: '',
    });
  },
});
