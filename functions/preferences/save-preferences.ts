import { savePreferences } from '@mailstack/core/domain/audience/preferences';
import { pageRoute } from './page-route.ts';

/** POST /preferences/{token} (public: the signed token is the credential) */
export const handler = pageRoute(savePreferences, 'POST');
