import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { html } from '@mailstack/core/http/respond';
import { oneClickUnsubscribe } from '@mailstack/core/domain/audience/preferences';
import { HtmlPage } from '@mailstack/core/schemas/common';

/** POST /unsubscribe/{token} (public: the signed token is the credential) */
export const handler = apiRoute({
  access: 'public',
  response: HtmlPage,
  responseFormat: 'html',
  params: v.object({ token: v.string() }),
  bodyFormat: 'form',
  handler: async ({ deps, params }) => {
    const page = await oneClickUnsubscribe(deps, params.token);
    return new RawResponse(html(page.status, page.html));
  },
});
