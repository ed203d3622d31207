import { renderUnsubscribe } from '@mailstack/core/domain/audience/preferences';
import { pageRoute } from './page-route.ts';

/** GET /unsubscribe/{token} (public: the signed token is the credential; showing never unsubscribes) */
export const handler = pageRoute(renderUnsubscribe, 'GET');
