import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { html } from '@mailstack/core/http/respond';
import type { Deps } from '@mailstack/core/runtime/deps';
import { HtmlPage } from '@mailstack/core/schemas/common';
import type { Page } from './pages.ts';

/** The page for a signed token, and the form it may have posted (pages.ts renders it from the domain's answer). */
type RenderPage = (deps: Deps, token: string, form: URLSearchParams) => Promise<Page>;

/**
 * A public hosted page (preferences, unsubscribe): the signed token in the path is the credential,
 * a POST carries an HTML form, and the answer is the page rendered from the domain's answer.
 */
export const pageRoute = (render: RenderPage, method: 'GET' | 'POST') =>
  apiRoute({
    access: 'public',
    response: HtmlPage,
    responseFormat: 'html',
    params: v.object({ token: v.string() }),
    ...(method === 'POST' ? { bodyFormat: 'form' as const } : {}),
    handler: async ({ deps, params, body }) => {
      const page = await render(deps, params.token, body as URLSearchParams);
      return new RawResponse(html(page.status, page.html));
    },
  });
