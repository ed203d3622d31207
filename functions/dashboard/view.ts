import { html, raw } from 'hono/html';
import type * as v from 'valibot';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Actor } from '@mailstack/core/domain/people/membership';
import { isApiError } from '@mailstack/core/errors/api-error';
import type { Ctx } from './app.ts';

/** What pages render into. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The sections of a team, in the navigation's order. */
const SECTIONS = [
  ['', 'Overview'],
  ['emails', 'Emails'],
  ['broadcasts', 'Broadcasts'],
  ['templates', 'Templates'],
  ['automations', 'Automations'],
  ['contacts', 'Contacts'],
  ['segments', 'Segments'],
  ['topics', 'Topics'],
  ['properties', 'Contact properties'],
  ['suppressions', 'Suppressions'],
  ['domains', 'Domains'],
  ['mailboxes', 'Mailboxes'],
  ['api-keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['logs', 'Logs'],
  ['connections', 'MCP connections'],
  ['settings', 'Team settings'],
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
    : html`<div class="table-wrap" tabindex="0"><table><caption class="skip">${caption}</caption><thead><tr>${heads.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;

/** A short date and time (UTC). */
export const when = (iso: string | null | undefined) =>
  iso
    ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`
    : html`<span class="muted">never</span>`;

/** How far an instant is from now, in words ("in 3 h 20 min", "5 min ago"). */
const relative = (at: number, now: number): string => {
  const ms = at - now;
  const abs = Math.abs(ms);
  if (abs < 60_000) return ms >= 0 ? 'in less than a minute' : 'less than a minute ago';
  const minutes = Math.round(abs / 60_000);
  const parts =
    minutes < 60
      ? `${minutes} min`
      : minutes < 48 * 60
        ? `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`
        : `${Math.floor(minutes / 1440)} days${Math.floor((minutes % 1440) / 60) ? ` ${Math.floor((minutes % 1440) / 60)} h` : ''}`;
  return ms >= 0 ? `in ${parts}` : `${parts} ago`;
};

/**
 * An instant as UTC text the script turns into the reader's local time (the server does not know
 * their zone), followed by how far it is from now.
 */
export const whenRelative = (iso: string | null | undefined, now: number) =>
  iso
    ? html`<time datetime="${iso}" data-local>${iso.slice(0, 16).replace('T', ' ')} UTC</time> <span class="muted">(${relative(Date.parse(iso), now)})</span>`
    : html`<span class="muted">not set</span>`;

/**
 * Answers HTML written by a customer (an email body, a template preview) for a sandboxed frame
 * only: the CSP makes it a sandboxed, opaque origin where no script runs and nothing loads.
 */
export const sandboxedHtml = (c: Ctx, body: string) => {
  c.header(
    'Content-Security-Policy',
    "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
  );
  c.header('X-Frame-Options', 'SAMEORIGIN');
  return c.html(body);
};

/**
 * A labelled form field: the label names the control by `for` (not by wrapping it, so the name
 * stays the label's words and never takes in the control's value).
 */
export const field = (id: string, label: string, control: Html) =>
  html`<div class="field"><label for="${id}">${label}</label>${control}</div>`;

/** The input attributes that carry a field's limits. */
export interface FieldLimits {
  maxlength?: number;
  minlength?: number;
  pattern?: string;
  min?: number;
  max?: number;
}

type AnySchema = v.GenericSchema & {
  readonly pipe?: readonly { readonly type: string; readonly requirement?: unknown }[];
  readonly entries?: Readonly<Record<string, AnySchema>>;
  readonly wrapped?: AnySchema;
  readonly item?: AnySchema;
};

/** A schema's own pipe actions, those of the schemas it pipes included (v.pipe(v.pipe(...), ...)). */
const actionsOf = (s: AnySchema): { readonly type: string; readonly requirement?: unknown }[] =>
  s.pipe ? [...(s.pipe[0] !== s ? actionsOf(s.pipe[0] as AnySchema) : []), ...s.pipe.slice(1)] : [];

/** Whether a browser takes `pattern` as an input's pattern (it compiles it as `^(?:pattern)$` with the v flag). */
const validPattern = (pattern: string): boolean => {
  try {
    new RegExp(`^(?:${pattern})$`, 'v');
    return true;
  } catch {
    return false;
  }
};

/** Through optional, nullable and nullish to the schema they wrap. */
const unwrap = (s: AnySchema): AnySchema => (s.wrapped ? unwrap(s.wrapped) : s);

/**
 * The limits an API body schema puts on one field, as input attributes: `path` walks object
 * entries (and the items of arrays), e.g. `fieldLimits(CreateTemplateRequest, 'variables', 'key')`.
 * A form renders them with `limitAttrs`, so the dashboard refuses what the API refuses, no more.
 */
export const fieldLimits = (schema: v.GenericSchema, ...path: string[]): FieldLimits => {
  let s = unwrap(schema as AnySchema);
  for (const key of path) {
    if (s.item) s = unwrap(s.item);
    const next = s.entries?.[key];
    if (!next) throw new Error(`fieldLimits: the schema has no field \`${path.join('.')}\` (at \`${key}\`).`);
    s = unwrap(next);
  }
  const limits: FieldLimits = {};
  // A pattern checked after the value is rewritten (lower-cased, transformed) does not hold for what is typed.
  let rewritten = false;
  for (const a of actionsOf(s)) {
    if (a.type === 'to_lower_case' || a.type === 'to_upper_case' || a.type === 'transform') rewritten = true;
    else if (a.type === 'max_length') limits.maxlength = a.requirement as number;
    else if (a.type === 'min_length') limits.minlength = a.requirement as number;
    else if (a.type === 'min_value') limits.min = a.requirement as number;
    else if (a.type === 'max_value') limits.max = a.requirement as number;
    else if (a.type === 'regex') {
      const re = a.requirement as RegExp;
      // An input's pattern matches the whole value, compiled with the v flag: the anchors go, and a
      // flagged pattern or one the v flag refuses stays out (the API still checks it).
      const pattern = re.source.replace(/^\^/, '').replace(/\$$/, '');
      if (!rewritten && !re.flags && validPattern(pattern)) limits.pattern = pattern;
    }
  }
  return limits;
};

/** Limits as input attributes (` maxlength="200" minlength="1"`), escaped. */
export const limitAttrs = (limits: FieldLimits) =>
  html`${Object.entries(limits).map(([name, value]) => html` ${raw(name)}="${String(value)}"`)}`;

/** The alert a refused form shows above itself. */
export const formError = (message: string | undefined) =>
  message ? html`<p class="error" role="alert">${message}</p>` : '';

/**
 * Runs a form's action; when the core refuses the input (a 4xx other than 403 forbidden and 404
 * not found, which keep their own page), answers the form again with the values typed, the error
 * above it, and the refusal's status.
 */
export const orFormAgain = async (
  c: Ctx,
  act: () => Promise<Response>,
  again: (error: string) => Html | Promise<Html>,
): Promise<Response> => {
  try {
    return await act();
  } catch (error) {
    if (
      !isApiError(error) ||
      error.statusCode < 400 ||
      error.statusCode >= 500 ||
      error.statusCode === 403 ||
      error.statusCode === 404
    )
      throw error;
    return c.html(await again(`${error.name}: ${error.message}`), error.statusCode as 400);
  }
};

/** Fixed notices after a redirect (a code in the URL, never text from it). */
const NOTICES: Readonly<Record<string, string>> = {
  created: 'Created.',
  deleted: 'Deleted.',
  saved: 'Saved.',
  revoked: 'Key revoked: requests with it now answer 401.',
  invited: 'Invitation sent.',
  verified: 'Verification started.',
  removed: 'Removed.',
  'link-sent': 'If the address has an account, a sign-in link is on its way.',
  'signed-out': 'You are signed out.',
  'password-set': 'Password saved.',
  published: 'Published.',
  duplicated: 'Copied: this is the copy.',
  sent: 'Sending started.',
  scheduled: 'Scheduled.',
  paced:
    'Sending started. The audience is more than can go out today, so it is paced over several days: see Pacing below.',
  queued:
    "Sending is queued: other broadcasts hold this region's broadcast capacity until they finish; see Pacing below.",
  canceled: 'Canceled: nothing more is sent.',
  'email-canceled': 'Email canceled: it will not be sent.',
  rescheduled: 'Rescheduled.',
  'link-revoked': 'Link revoked: it now answers 404.',
  'key-revoked': 'Mailbox key revoked: requests with it are now refused (403).',
  'draft-approved': "Draft approved: it is admitted to the outbox and goes out from the mailbox's address.",
  'draft-rejected': 'Draft rejected: it stays a draft; the agent may edit it and ask again.',
  'connection-revoked': "Connection revoked: the client's next call is refused.",
  enabled: 'Endpoint re-enabled: new events are delivered to it again.',
  disabled: 'Endpoint disabled.',
  replayed: 'Event queued to be sent again (same webhook-id).',
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
export const plainPage = (title: string, content: Html, notice?: string, cls = 'auth') =>
  html`${head(title)}<body><main id="main" class="${cls}"><h1>${title}</h1>${notice && NOTICES[notice] ? html`<p class="notice" role="status">${NOTICES[notice]}</p>` : ''}${content}</main></body></html>`;
