import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Preferences } from '@mailstack/core/domain/audience/preferences';

/**
 * The hosted pages a recipient reaches from an email's links: the preference page and the
 * unsubscribe confirmation. Rendered here, with every value escaped by hono's `html` template;
 * the domain hands over data only.
 */

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
fieldset{border:1px solid #ddd;border-radius:8px;padding:1rem}label{display:block;margin:.5rem 0}
.muted{color:#666;font-size:.9rem}button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:0;background:#111;color:#fff;cursor:pointer}
.saved{background:#e8f6ec;padding:.5rem 1rem;border-radius:6px}`;

/** A page as its answer: the status and the HTML. */
export interface Page {
  readonly status: number;
  readonly html: string;
}

const page = async (
  status: number,
  title: string,
  body: HtmlEscapedString | Promise<HtmlEscapedString>,
): Promise<Page> => ({
  status,
  html: String(
    await html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>${STYLE}</style></head>
<body>${body}</body></html>`,
  ),
});

/** The page of a link that does not verify: never another contact's page. */
export const linkNotFoundPage = (): Promise<Page> =>
  page(
    404,
    'Link not found',
    html`<h1>This link is not valid</h1><p>The preference link is unknown, was changed, or the contact no longer exists. Use the link from your most recent email.</p>`,
  );

/** The hosted preference page: public topics with the contact's choices, and global unsubscribe. */
export const preferencesPage = (p: Preferences, saved = false): Promise<Page> =>
  page(
    200,
    'Email preferences',
    html`<h1>Email preferences</h1>
<p class="muted">For ${p.email}</p>
${saved ? html`<p class="saved" role="status">Your preferences were saved.</p>` : ''}
<form method="post">
<fieldset><legend>Topics</legend>${
      p.topics.length
        ? p.topics.map(
            (t) =>
              html`<label><input type="checkbox" name="topic" value="${t.id}" ${t.subscribed ? 'checked' : ''}> ${t.name}${t.description ? html` <span class="muted">— ${t.description}</span>` : ''}</label>
`,
          )
        : html`<p class="muted">There are no topics to choose from.</p>`
    }</fieldset>
<label><input type="checkbox" name="unsubscribe_all" value="yes" ${p.unsubscribed ? 'checked' : ''}> Unsubscribe from all marketing email</label>
<button type="submit">Save preferences</button>
</form>`,
  );

/** The confirmation page of an unsubscribe link (a GET never unsubscribes: mail scanners prefetch). */
export const unsubscribePage = (): Promise<Page> =>
  page(
    200,
    'Unsubscribe',
    html`<h1>Unsubscribe</h1><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );

/** The page after a one-click unsubscribe. */
export const unsubscribedPage = (): Promise<Page> =>
  page(200, 'Unsubscribed', html`<h1>You are unsubscribed</h1><p>You will not receive these emails any more.</p>`);
