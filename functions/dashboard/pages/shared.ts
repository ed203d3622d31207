import type { Hono } from 'hono';
import { html } from 'hono/html';
import { openSharedEmail } from '@mailstack/core/domain/emails/share-email';
import type { DashboardEnv, Ctx } from '../app.ts';
import { plainPage, sandboxedHtml, when } from '../view.ts';

/** The answer of a link that does not work (unknown, expired, revoked, or its email gone). */
const gone = (c: Ctx) =>
  c.html(
    plainPage(
      'Not found',
      html`<p class="error" role="alert"><strong>not_found</strong>: This shared link is unknown, expired or revoked. Ask whoever shared it for a new one.</p>`,
    ),
    404,
  );

/**
 * A shared email (`POST /emails/{id}/share`): a read-only page anyone with the link may open, no
 * session needed, until the link expires or is revoked; the HTML in the same sandboxed frame as
 * the email page. Search engines are asked not to index it.
 */
export const registerShared = (app: Hono<DashboardEnv>): void => {
  app.get('/shared/:token', async (c) => {
    const e = await openSharedEmail(c.get('deps'), c.req.param('token'));
    c.header('X-Robots-Tag', 'noindex, nofollow');
    if (!e) return gone(c);
    return c.html(
      plainPage(
        e.subject || '(no subject)',
        html`<p class="muted">A shared copy of an email, read-only. This link works until ${when(e.expiresAt)}.</p>
<div class="card"><dl><dt>From</dt><dd>${e.from}</dd><dt>To</dt><dd>${e.to.join(', ')}</dd>${e.cc.length ? html`<dt>Cc</dt><dd>${e.cc.join(', ')}</dd>` : ''}<dt>Date</dt><dd>${when(e.date)}</dd></dl></div>
${e.html !== null ? html`<h2>HTML</h2><iframe class="preview" sandbox="" src="/shared/${c.req.param('token')}/html" title="The email's HTML, rendered without scripts"></iframe>` : ''}
${e.text !== null ? html`<h2>Text</h2><pre>${e.text}</pre>` : ''}`,
        undefined,
        'shared',
      ),
    );
  });
  app.get('/shared/:token/html', async (c) => {
    const e = await openSharedEmail(c.get('deps'), c.req.param('token'));
    if (!e) return gone(c);
    c.header('X-Robots-Tag', 'noindex, nofollow');
    return sandboxedHtml(c, e.html ?? '');
  });
};
