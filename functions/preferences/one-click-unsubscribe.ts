import { oneClickUnsubscribe } from '@mailstack/core/domain/audience/one-click-unsubscribe';
import { pageRoute } from './page-route.ts';
import { linkNotFoundPage, unsubscribedPage } from './pages.ts';

/** POST /unsubscribe/{token} (public: the signed token is the credential; RFC 8058 one-click) */
export const handler = pageRoute(
  async (deps, token) => ((await oneClickUnsubscribe(deps, token)) ? unsubscribedPage() : linkNotFoundPage()),
  'POST',
);
