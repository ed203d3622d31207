import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { verifyTracking } from '@mailstack/core/domain/tracking/tokens';
import { recordOpen } from '@mailstack/core/domain/tracking/record';
import { notFoundText, requesterOf } from './respond.ts';

/** A transparent 1x1 GIF. */
const PIXEL = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** GET /t/o/{token}: the open pixel (public: the signed token is the credential) */
export const handler = apiRoute({
  access: 'public',
  response: v.pipe(v.string(), v.description('A transparent 1x1 GIF.')),
  responseFormat: 'gif',
  params: v.object({ token: v.string() }),
  handler: async ({ deps, params, event, headers }) => {
    const claims = await verifyTracking(deps, params.token, 'o');
    if (!claims) return new RawResponse(notFoundText());
    await recordOpen(deps, claims, requesterOf(event, headers));
    return new RawResponse({
      statusCode: 200,
      headers: { 'content-type': 'image/gif', 'cache-control': 'no-store, max-age=0' },
      body: PIXEL,
      isBase64Encoded: true,
    });
  },
});
