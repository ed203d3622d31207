import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { html } from '@mailstack/core/http/respond';
import { renderUnsubscribe } from '@mailstack/core/domain/audience/preferences';
import { HtmlPage } from '@mailstack/core/schemas/common';

/** GET /unsubscribe/{token} (public: the signed token is the credential) */
export const handler = apiRoute({
  access: 'public',
  response: HtmlPage,
  responseFormat: 'html',
  params: v.object({ token: v.string() }),
  handler: async ({ deps, params }) => {
    const page = await renderUnsubscribe(deps, params.token);
    return new RawResponse(html(page.status, page.html));
  },
});
