import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Actor } from '@mailstack/core/domain/people/memberships';

/** What pages render into. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The sections of a team, in the navigation's order. */
export const SECTIONS = [
  ['', 'Overview'], ['emails', 'Emails'], ['contacts', 'Contacts'], ['segments', 'Segments'], ['topics', 'Topics'],
  ['properties', 'Contact properties'], ['suppressions', 'Suppressions'], ['domains', 'Domains'], ['api-keys', 'API keys'], ['webhooks', 'Webhooks'], ['settings', 'Team settings'],
] as const;

/** What every page of a signed-in person knows. */
export interface PageContext {
  readonly actor: Actor;
  readonly csrf: string;
  readonly teams: readonly { id: string; name: string }[];
  readonly section: string;
}

/** The hidden CSRF field every form carries. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** A form posting to `action` with the CSRF field. */
export const postForm = (csrf: string, action: string, body: Html, cls = 'row') =>
  html`<form method="post" action="${action}" class="${cls}">${csrfField(csrf)}${body}</form>`;

/** A one-button form (delete, revoke, verify). */
export const button = (csrf: string, action: string, label: string, cls = 'secondary', accessibleName?: string) =>
  html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}<button class="${cls}"${accessibleName ? html` aria-label="${accessibleName}"` : ''}>${label}</button></form>`;

/** A status badge. */
export const badge = (status: string) => html`<span class="badge ${status.replace(/[^a-z_]/g, '')}">${status}</span>`;

/** A table, scrollable when narrow. */
export const table = (caption: string, heads: readonly string[], rows: readonly Html[], empty: string) =>
  rows.length === 0
    ? html`<p class="muted">${empty}</p>`
    : html`<div class="table-wrap"><table><caption class="skip">${caption}</caption><thead><tr>${heads.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;

/** A short date and time (UTC). */
export const when = (iso: string | null | undefined) => (iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : html`<span class="muted">never</span>`);

/** Fixed notices after a redirect (a code in the URL, never text from it). */
export const NOTICES: Readonly<Record<string, string>> = {
  created: 'Created.', deleted: 'Deleted.', saved: 'Saved.', revoked: 'Key revoked: requests with it now answer 401.', invited: 'Invitation sent.',
  verified: 'Verification started.', removed: 'Removed.', 'link-sent': 'If the address has an account, a sign-in link is on its way.',
  'signed-out': 'You are signed out.', 'password-set': 'Password saved.',
  enabled: 'Endpoint re-enabled: new events are delivered to it again.', disabled: 'Endpoint disabled.', replayed: 'Event queued to be sent again (same webhook-id).',
};

const head = (title: string) => html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · mailstack</title>
<link rel="stylesheet" href="/assets/style.css"><script src="/assets/app.js" defer></script></head>`;

/** A page of a team: header with team switcher and sign-out, section navigation, content. */
export const teamPage = (ctx: PageContext, title: string, content: Html, notice?: string) => {
  const t = ctx.actor.team;
  return html`${head(title)}<body><a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/">mailstack</a>
<form method="get" action="/switch" class="inline"><label class="check"><span class="skip">Team</span>
<select name="team" data-navigate aria-label="Team">${ctx.teams.map((x) => html`<option value="/t/${x.id}/"${x.id === t.id ? raw(' selected') : ''}>${x.name}</option>`)}</select></label>
<noscript><button>Go</button></noscript></form>
<div class="who"><span>${ctx.actor.user.email} · ${ctx.actor.role}</span>${button(ctx.csrf, '/sign-out', 'Sign out')}</div></header>
<div class="shell"><nav class="side" aria-label="Sections"><ul>${SECTIONS.map(([path, label]) => html`<li><a href="/t/${t.id}/${path}"${ctx.section === path ? raw(' aria-current="page"') : ''}>${label}</a></li>`)}</ul></nav>
<main id="main"><h1>${title}</h1>${notice && NOTICES[notice] ? html`<p class="notice" role="status">${NOTICES[notice]}</p>` : ''}${content}</main></div></body></html>`;
};

/** A page outside a team (sign-in, invitations, errors). */
export const plainPage = (title: string, content: Html, notice?: string) => html`${head(title)}<body><main id="main" class="auth"><h1>${title}</h1>${notice && NOTICES[notice] ? html`<p class="notice" role="status">${NOTICES[notice]}</p>` : ''}${content}</main></body></html>`;
