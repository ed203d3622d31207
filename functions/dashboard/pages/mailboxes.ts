import type { Hono } from 'hono';
import { html } from 'hono/html';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { deleteMailbox } from '@mailstack/core/domain/mailboxes/delete-mailbox';
import { getMailbox } from '@mailstack/core/domain/mailboxes/get-mailbox';
import { listMailboxes } from '@mailstack/core/domain/mailboxes/list-mailboxes';
import { MAX_MAILBOX_NAME_LENGTH } from '@mailstack/core/domain/mailboxes/mailbox-names';
import { renameMailbox } from '@mailstack/core/domain/mailboxes/rename-mailbox';
import { MAX_KEY_NAME_LENGTH } from '@mailstack/core/limits';
import { createMailboxKey } from '@mailstack/core/domain/mailboxes/create-mailbox-key';
import { listMailboxKeys } from '@mailstack/core/domain/mailboxes/list-mailbox-keys';
import { revokeMailboxKey } from '@mailstack/core/domain/mailboxes/revoke-mailbox-key';
import type { MailboxKey } from '@mailstack/core/domain/mailboxes/mailbox-key';
import { MAX_LOCAL_PART_LENGTH, type Mailbox } from '@mailstack/core/domain/mailboxes/mailbox';
import { listDomains } from '@mailstack/core/domain/domains/list-domains';
import { listMembers, type Membership } from '@mailstack/core/domain/people/membership';
import { allows, authorize } from '@mailstack/core/domain/people/roles';
import type { DashboardEnv, Ctx } from '../app.ts';
import { badge, button, field, formError, orFormAgain, postForm, table, teamPage, when, type Html } from '../view.ts';

/** The values of a submitted form, by field name. */
type Form = Record<string, string>;

/** What each section of a mailbox's page is drawn from. */
interface MailboxPanel {
  readonly c: Ctx;
  readonly mailbox: Mailbox;
  /** The mailbox page's path (`/t/<team>/mailboxes/<id>`); a section's forms post under it. */
  readonly base: string;
  readonly csrf: string;
  /** The signed-in person owns the mailbox: only they create and revoke its keys. */
  readonly isOwner: boolean;
  /** The signed-in person's role may rename and delete the team's mailboxes. */
  readonly mayManage: boolean;
  /** The time of the request (ms since the epoch), for expiry and relative times. */
  readonly now: number;
  /** The key just created, shown this once (the 201 answer of the key form). */
  readonly minted?: { readonly name: string; readonly secret: string } | undefined;
  /** A form the core refused: its name (a section's own word), the error, and the values typed. */
  readonly refused?: { readonly form: string; readonly error: string; readonly values: Form } | undefined;
}

/** A section of a mailbox's page: an `<h2>` and what follows it. */
export type MailboxSection = (panel: MailboxPanel) => Html | Promise<Html>;

/** The path of a mailbox's page. */
export const mailboxPath = (teamId: string, mailboxId: string): string => `/t/${teamId}/mailboxes/${mailboxId}`;

const copy = (value: string, what: string) =>
  html` <button type="button" class="secondary" data-copy="${value}" aria-label="Copy ${what}" hidden>Copy</button>`;

const personOf = (members: readonly Membership[], userId: string) => {
  const m = members.find((x) => x.userId === userId);
  return m
    ? html`${m.name ? html`${m.name} ` : ''}<span class="muted">${m.email}</span>`
    : html`<span class="muted">${userId} (no longer in the team)</span>`;
};

/** A key's state at `now`: revoked wins over expired. */
const statusOf = (k: MailboxKey, now: number) =>
  k.revoked ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= now ? 'expired' : 'active';

/** A `<input type="date">` value is the end of that day (UTC); anything else goes to the core as typed. */
const expiryOf = (value: string | undefined): string | null => {
  const v = (value ?? '').trim();
  if (v === '') return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v;
};

const summarySection: MailboxSection = async ({ c, mailbox: m }) => {
  const { config } = c.get('deps');
  const members = await listMembers(c.get('deps'), m.teamId);
  const api = `${config.DASHBOARD_URL}/api/mailbox-agent`;
  const mcp = `${config.PUBLIC_BASE_URL}/mcp/${m.id}`;
  return html`<p><a href="/t/${m.teamId}/mailboxes">All mailboxes</a></p>
<div class="card"><dl><dt>Address</dt><dd><code>${m.address}</code>${copy(m.address, 'the address')}</dd>
<dt>Display name</dt><dd>${m.name ?? html`<span class="muted">none</span>`}</dd>
<dt>Owner</dt><dd>${personOf(members, m.ownerUserId)}</dd><dt>Created</dt><dd>${when(m.createdAt)}</dd><dt>Id</dt><dd><code>${m.id}</code></dd></dl></div>
<h2>Agent endpoints</h2>
<p class="muted">Where a program holding one of this mailbox's keys reads, drafts and sends its mail (the key goes in <code>Authorization: Bearer mmb_...</code>).</p>
<dl><dt>Mailbox agent API</dt><dd><code>${api}</code>${copy(api, 'the mailbox agent API address')}</dd>
<dt>MCP server</dt><dd><code>${mcp}</code>${copy(mcp, 'the mailbox MCP server address')}</dd></dl>`;
};

const keysSection: MailboxSection = async ({ c, mailbox: m, base, csrf, isOwner, now, minted, refused }) => {
  const keys = await listMailboxKeys(c.get('deps'), m.teamId, m.id);
  const v = refused?.form === 'key' ? refused.values : {};
  return html`<h2>Mailbox keys</h2>
${
  minted
    ? html`<div class="card" role="status"><p><strong>New key "${minted.name}".</strong> Copy it now: it is shown only this once.</p>
<p class="secret"><code id="new-key">${minted.secret}</code><button type="button" class="secondary" data-copy="${minted.secret}" aria-label="Copy the new key" hidden>Copy</button></p></div>`
    : ''
}
${
  isOwner
    ? html`${formError(refused?.form === 'key' ? refused.error : undefined)}${postForm(
        csrf,
        `${base}/keys`,
        html`${field('k-name', 'Key name', html`<input id="k-name" name="name" required maxlength="${MAX_KEY_NAME_LENGTH}" value="${v.name ?? ''}">`)}
${field('k-expires', 'Expires on (optional, end of that day UTC)', html`<input id="k-expires" type="date" name="expires_at" min="${new Date(now).toISOString().slice(0, 10)}" value="${v.expires_at ?? ''}">`)}
<label class="check"><input type="checkbox" name="send" value="on"${v.send === 'on' ? html` checked` : ''}> May send without approval</label><button>Create key</button>`,
      )}`
    : html`<p class="muted">Only the mailbox's owner creates and revokes its keys.</p>`
}
${table(
  'Mailbox keys',
  ['Name', 'Permissions', 'Expires', 'Status', 'Created', ''],
  [...keys]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((k) => {
      const status = statusOf(k, now);
      return html`<tr><td>${k.name}</td><td>${k.permissions.join(', ')}</td><td>${when(k.expiresAt)}</td><td>${badge(status)}</td><td>${when(k.createdAt)}</td><td>${isOwner && !k.revoked ? button(csrf, `${base}/keys/${k.id}/revoke`, 'Revoke', 'danger', `Revoke key ${k.name}`) : ''}</td></tr>`;
    }),
  'No keys yet.',
)}`;
};

const renameSection: MailboxSection = ({ mailbox: m, base, csrf, mayManage, refused }) => {
  if (!mayManage) return html``;
  const v = refused?.form === 'rename' ? refused.values : { local_part: m.localPart, name: m.name ?? '' };
  const domain = m.address.slice(m.address.indexOf('@'));
  return html`<h2>Rename</h2>
<p class="muted">A new local part moves the address: mail to the old one is no longer accepted.</p>
${formError(refused?.form === 'rename' ? refused.error : undefined)}${postForm(
  csrf,
  `${base}/rename`,
  html`${field('r-local_part', `Local part (before ${domain})`, html`<input id="r-local_part" name="local_part" required maxlength="${MAX_LOCAL_PART_LENGTH}" value="${v.local_part ?? ''}">`)}
${field('r-name', 'Display name', html`<input id="r-name" name="name" maxlength="${MAX_MAILBOX_NAME_LENGTH}" value="${v.name ?? ''}">`)}<button>Save</button>`,
)}`;
};

const deleteSection: MailboxSection = ({ mailbox: m, base, csrf, mayManage }) =>
  mayManage
    ? html`<h2>Delete</h2><p class="muted">${m.address} stops accepting mail at once and its keys stop working; its stored messages stay readable through the receiving API.</p>
${button(csrf, `${base}/delete`, 'Delete mailbox', 'danger')}`
    : html``;

/**
 * The sections of a mailbox's page, in order: the summary and agent endpoints, the keys, then
 * `more` (approvals, activity), then renaming and deleting.
 */
const mailboxSections = (more: readonly MailboxSection[] = []): readonly MailboxSection[] => [
  summarySection,
  keysSection,
  ...more,
  renameSection,
  deleteSection,
];

/**
 * The page of the mailbox the route's `:id` names, built from `sections` (`mailboxSections(more)`);
 * another team's mailbox id answers 404. `extra` carries a key just created or a refused form, for
 * the section that shows it.
 */
const renderMailboxPage = async (
  c: Ctx,
  sections: readonly MailboxSection[],
  extra: Pick<MailboxPanel, 'minted' | 'refused'> = {},
) => {
  const actor = c.get('actor');
  const mailbox = await getMailbox(c.get('deps'), actor.team.id, c.req.param('id') ?? '');
  const panel: MailboxPanel = {
    c,
    mailbox,
    base: mailboxPath(actor.team.id, mailbox.id),
    csrf: c.get('ctx').csrf,
    isOwner: mailbox.ownerUserId === actor.user.id,
    mayManage: allows(actor.role, 'mailboxes:write'),
    now: c.get('deps').clock.now(),
    ...extra,
  };
  const fragments = await Promise.all(sections.map((section) => section(panel)));
  return teamPage(c.get('ctx'), mailbox.address, html`${fragments}`, c.req.query('notice'));
};

const listPage = async (c: Ctx, v?: Form, error?: string) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const { csrf } = c.get('ctx');
  const t = `/t/${actor.team.id}`;
  const [mailboxes, members, { items: domains }] = await Promise.all([
    listMailboxes(deps, actor.team.id),
    listMembers(deps, actor.team.id),
    listDomains(deps, actor.team.id, { limit: 100 }),
  ]);
  const verified = domains.filter((d) => d.status === 'verified');
  const owner = v?.owner_user_id ?? actor.user.id;
  const form =
    verified.length === 0
      ? html`<p class="muted">A mailbox needs a verified domain: <a href="${t}/domains">add or verify one under Domains</a>.</p>`
      : html`${formError(error)}${postForm(
          csrf,
          `${t}/mailboxes`,
          html`${field('m-local_part', 'Local part', html`<input id="m-local_part" name="local_part" required maxlength="${MAX_LOCAL_PART_LENGTH}" placeholder="support" value="${v?.local_part ?? ''}">`)}
${field('m-domain', 'Domain', html`<select id="m-domain" name="domain_id" required>${verified.map((d) => html`<option value="${d.id}"${d.id === v?.domain_id ? html` selected` : ''}>@${d.name}</option>`)}</select>`)}
${field('m-name', 'Display name (optional)', html`<input id="m-name" name="name" maxlength="${MAX_MAILBOX_NAME_LENGTH}" placeholder="Acme Support" value="${v?.name ?? ''}">`)}
${field('m-owner', 'Owner', html`<select id="m-owner" name="owner_user_id">${members.map((m) => html`<option value="${m.userId}"${m.userId === owner ? html` selected` : ''}>${m.name ? `${m.name} (${m.email})` : m.email}</option>`)}</select>`)}<button>Create mailbox</button>`,
        )}`;
  return teamPage(
    c.get('ctx'),
    'Mailboxes',
    html`
<p class="muted">A mailbox is an address on a verified domain that receives mail, owned by a person of the team. Its owner creates keys for programs (agents) that read, draft and send its mail.</p>
${allows(actor.role, 'mailboxes:write') ? form : html`<p class="muted">Your role (${actor.role}) may see mailboxes but not create, rename or delete them.</p>`}
${table(
  'Mailboxes',
  ['Address', 'Display name', 'Owner', 'Created'],
  mailboxes.map(
    (m) =>
      html`<tr><td><a href="${t}/mailboxes/${m.id}">${m.address}</a></td><td>${m.name ?? ''}</td><td>${personOf(members, m.ownerUserId)}</td><td>${when(m.createdAt)}</td></tr>`,
  ),
  'No mailboxes yet.',
)}`,
    c.req.query('notice'),
  );
};

/**
 * The mailboxes pages: the team's list with the create form, and each mailbox's page built from
 * `mailboxSections(more)`.
 */
export const registerMailboxes = (app: Hono<DashboardEnv>, more: readonly MailboxSection[] = []): void => {
  const sections = mailboxSections(more);
  app.get('/t/:team/mailboxes', async (c) => c.html(await listPage(c)));
  app.post('/t/:team/mailboxes', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'mailboxes:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const m = await createMailbox(c.get('deps'), {
          teamId: actor.team.id,
          domainId: f.domain_id ?? '',
          localPart: f.local_part ?? '',
          name: f.name,
          ownerUserId: f.owner_user_id || actor.user.id,
        });
        return c.redirect(`${mailboxPath(actor.team.id, m.id)}?notice=created`, 303);
      },
      (error) => listPage(c, f, error),
    );
  });
  app.get('/t/:team/mailboxes/:id', async (c) => c.html(await renderMailboxPage(c, sections)));
  app.post('/t/:team/mailboxes/:id/rename', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'mailboxes:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const m = await renameMailbox(c.get('deps'), actor.team.id, c.req.param('id'), {
          localPart: f.local_part ?? '',
          name: f.name ?? null,
        });
        return c.redirect(`${mailboxPath(actor.team.id, m.id)}?notice=saved`, 303);
      },
      (error) => renderMailboxPage(c, sections, { refused: { form: 'rename', error, values: f } }),
    );
  });
  app.post('/t/:team/mailboxes/:id/delete', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'mailboxes:write');
    await deleteMailbox(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/mailboxes?notice=deleted`, 303);
  });
  // The secret is in this answer only (no redirect, nothing stored but its hash).
  app.post('/t/:team/mailboxes/:id/keys', async (c) => {
    const actor = c.get('actor');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const { key, secret } = await createMailboxKey(c.get('deps'), {
          teamId: actor.team.id,
          mailboxId: c.req.param('id'),
          actorUserId: actor.user.id,
          name: f.name?.trim() || undefined,
          send: f.send === 'on',
          expiresAt: expiryOf(f.expires_at),
        });
        return c.html(await renderMailboxPage(c, sections, { minted: { name: key.name, secret } }), 201);
      },
      (error) => renderMailboxPage(c, sections, { refused: { form: 'key', error, values: f } }),
    );
  });
  app.post('/t/:team/mailboxes/:id/keys/:keyId/revoke', async (c) => {
    const actor = c.get('actor');
    await revokeMailboxKey(c.get('deps'), {
      teamId: actor.team.id,
      mailboxId: c.req.param('id'),
      keyId: c.req.param('keyId'),
      actorUserId: actor.user.id,
    });
    return c.redirect(`${mailboxPath(actor.team.id, c.req.param('id'))}?notice=key-revoked`, 303);
  });
};
