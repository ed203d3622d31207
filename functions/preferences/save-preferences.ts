import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { html } from '@mailstack/core/http/respond';
import { savePreferences } from '@mailstack/core/domain/audience/preferences';
import { HtmlPage } from '@mailstack/core/schemas/common';

/** POST /preferences/{token} (public: the signed token is the credential) */
export const handler = apiRoute({
  access: 'public',
  response: HtmlPage,
  responseFormat: 'html',
  params: v.object({ token: v.string() }),
  bodyFormat: 'form',
  handler: async ({ deps, params, body }) => {
    const page = await savePreferences(deps, params.token, body);
    return new RawResponse(html(page.status, page.html));
  },
});
