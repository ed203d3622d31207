import { preferencesOf } from '@mailstack/core/domain/audience/preferences';
import { pageRoute } from './page-route.ts';
import { linkNotFoundPage, preferencesPage } from './pages.ts';

/** GET /preferences/{token} (public: the signed token is the credential) */
export const handler = pageRoute(async (deps, token) => {
  const preferences = await preferencesOf(deps, token);
  return preferences ? preferencesPage(preferences) : linkNotFoundPage();
}, 'GET');
