import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { html } from '@mailstack/core/http/respond';
import { renderPreferences } from '@mailstack/core/domain/audience/preferences';
import { HtmlPage } from '@mailstack/core/schemas/common';

/** GET /preferences/{token} (public: the signed token is the credential) */
export const handler = apiRoute({
  access: 'public',
  response: HtmlPage,
  responseFormat: 'html',
  params: v.object({ token: v.string() }),
  handler: async ({ deps, params }) => {
    const page = await renderPreferences(deps, params.token);
    return new RawResponse(html(page.status, page.html));
  },
});
