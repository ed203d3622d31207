import { unsubscribeLinkHolds } from '@mailstack/core/domain/audience/preferences';
import { pageRoute } from './page-route.ts';
import { linkNotFoundPage, unsubscribePage } from './pages.ts';

/** GET /unsubscribe/{token} (public: the signed token is the credential; showing never unsubscribes) */
export const handler = pageRoute(
  async (deps, token) => ((await unsubscribeLinkHolds(deps, token)) ? unsubscribePage() : linkNotFoundPage()),
  'GET',
);
