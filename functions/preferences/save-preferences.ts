import { savePreferences } from '@mailstack/core/domain/audience/save-preferences';
import { pageRoute } from './page-route.ts';
import { linkNotFoundPage, preferencesPage } from './pages.ts';

/** POST /preferences/{token} (public: the signed token is the credential) */
export const handler = pageRoute(async (deps, token, form) => {
  const saved = await savePreferences(deps, token, {
    topics: form.getAll('topic'),
    unsubscribeAll: form.get('unsubscribe_all') === 'yes',
  });
  return saved ? preferencesPage(saved, true) : linkNotFoundPage();
}, 'POST');
