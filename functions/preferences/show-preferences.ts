import { renderPreferences } from '@mailstack/core/domain/audience/preferences';
import { pageRoute } from './page-route.ts';

/** GET /preferences/{token} (public: the signed token is the credential) */
export const handler = pageRoute((deps, token) => renderPreferences(deps, token), 'GET');
