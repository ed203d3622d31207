import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import {
  CreateContactPropertyRequest,
  CreateContactRequest,
  CreateSegmentRequest,
} from '@mailstack/core/schemas/contacts';
import { CreateTopicRequest } from '@mailstack/core/schemas/topics';
import { AddSuppressionRequest } from '@mailstack/core/schemas/suppressions';
import type { Pagination } from '@mailstack/core/schemas/common';
import type { Page } from '@mailstack/core/domain/paging';
import { listContacts } from '@mailstack/core/domain/contacts/list-contacts';
import { createContact } from '@mailstack/core/domain/contacts/create-contact';
import { deleteContact } from '@mailstack/core/domain/contacts/delete-contact';
import { createSegment } from '@mailstack/core/domain/segments/create-segment';
import { deleteSegment } from '@mailstack/core/domain/segments/delete-segment';
import { listSegments } from '@mailstack/core/domain/segments/list-segments';
import { createTopic } from '@mailstack/core/domain/topics/create-topic';
import { deleteTopic } from '@mailstack/core/domain/topics/delete-topic';
import { listTopics } from '@mailstack/core/domain/topics/list-topics';
import { SUBSCRIPTIONS, TOPIC_VISIBILITIES } from '@mailstack/core/domain/topics/vocabulary';
import { createContactProperty } from '@mailstack/core/domain/contacts/create-contact-property';
import { deleteContactProperty } from '@mailstack/core/domain/contacts/delete-contact-property';
import { listContactProperties } from '@mailstack/core/domain/contacts/list-contact-properties';
import { listSuppressions } from '@mailstack/core/domain/suppressions/list-suppressions';
import { removeSuppression } from '@mailstack/core/domain/suppressions/remove-suppression';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';
import { authorize } from '@mailstack/core/domain/people/roles';
import type { Deps } from '@mailstack/core/runtime/deps';
import type { Actor } from '@mailstack/core/domain/people/membership';
import type { DashboardEnv, Ctx } from '../app.ts';
import { button, fieldLimits, limitAttrs, postForm, table, teamPage, when, type Html } from '../view.ts';

/**
 * One audience section: a list page with an add form and a delete button per row, the add and
 * delete form endpoints (audience:write), each calling the core's use cases.
 */
interface Section<T extends { id: string }> {
  readonly path: string;
  readonly title: string;
  readonly heads: readonly string[];
  readonly empty: string;
  readonly list: (deps: Deps, teamId: string, page: Pagination) => Promise<Page<T>>;
  /** The add form's fields and button. */
  readonly fields: Html;
  /** The row's cells before the delete button, and the button's accessible name. */
  readonly cells: (item: T) => Html;
  readonly deleteLabel: (item: T) => string;
  readonly add: (deps: Deps, actor: Actor, form: Record<string, string>) => Promise<unknown>;
  readonly remove: (deps: Deps, actor: Actor, id: string) => Promise<unknown>;
}

const registerSection = <T extends { id: string }>(app: Hono<DashboardEnv>, s: Section<T>): void => {
  const back = (c: Ctx, notice: string) => c.redirect(`/t/${c.get('actor').team.id}/${s.path}?notice=${notice}`, 303);
  app.get(`/t/:team/${s.path}`, async (c) => {
    const after = c.req.query('after');
    const { items, hasMore } = await s.list(c.get('deps'), c.get('actor').team.id, {
      limit: 50,
      after: after && /^[0-9a-f-]{36}$/.test(after) ? after : undefined,
    });
    const { csrf } = c.get('ctx');
    const base = `/t/${c.get('actor').team.id}/${s.path}`;
    const last = items.at(-1)?.id;
    return c.html(
      teamPage(
        c.get('ctx'),
        s.title,
        html`${postForm(csrf, base, s.fields)}
${table(
  s.title,
  [...s.heads, ''],
  items.map(
    (x) =>
      html`<tr>${s.cells(x)}<td>${button(csrf, `${base}/${x.id}/delete`, 'Delete', 'danger', s.deleteLabel(x))}</td></tr>`,
  ),
  s.empty,
)}
${hasMore && last ? html`<p class="pager"><a href="${base}?after=${last}">Older</a></p>` : ''}`,
        c.req.query('notice'),
      ),
    );
  });
  app.post(`/t/:team/${s.path}`, async (c) => {
    authorize(c.get('actor').role, 'audience:write');
    await s.add(c.get('deps'), c.get('actor'), c.get('form'));
    return back(c, 'created');
  });
  app.post(`/t/:team/${s.path}/:id/delete`, async (c) => {
    authorize(c.get('actor').role, 'audience:write');
    await s.remove(c.get('deps'), c.get('actor'), c.req.param('id'));
    return back(c, 'deleted');
  });
};

export const registerAudience = (app: Hono<DashboardEnv>): void => {
  registerSection(app, {
    path: 'contacts',
    title: 'Contacts',
    heads: ['Email', 'Name', 'Subscribed', 'Added'],
    empty: 'No contacts yet.',
    list: (deps, teamId, page) => listContacts(deps, teamId, page),
    fields: html`<label>Email <input type="email" name="email" required${limitAttrs(fieldLimits(CreateContactRequest, 'email'))}></label><label>First name <input name="first_name"${limitAttrs(fieldLimits(CreateContactRequest, 'first_name'))}></label><label>Last name <input name="last_name"${limitAttrs(fieldLimits(CreateContactRequest, 'last_name'))}></label><button>Add contact</button>`,
    cells: (x) =>
      html`<td>${x.email}</td><td>${[x.firstName, x.lastName].filter(Boolean).join(' ')}</td><td>${x.unsubscribed ? 'unsubscribed' : 'subscribed'}</td><td>${when(x.createdAt)}</td>`,
    deleteLabel: (x) => `Delete ${x.email}`,
    add: (deps, actor, f) =>
      createContact(
        deps,
        actor.team,
        validate(CreateContactRequest, {
          email: f.email ?? '',
          ...(f.first_name ? { first_name: f.first_name } : {}),
          ...(f.last_name ? { last_name: f.last_name } : {}),
        }),
        'dashboard',
      ),
    remove: (deps, actor, id) => deleteContact(deps, actor.team.id, id, 'dashboard'),
  });
  registerSection(app, {
    path: 'segments',
    title: 'Segments',
    heads: ['Name', 'Id', 'Created'],
    empty: 'No segments yet.',
    list: (deps, teamId, page) => listSegments(deps, teamId, page),
    fields: html`<label>Name <input name="name" required${limitAttrs(fieldLimits(CreateSegmentRequest, 'name'))}></label><button>Add segment</button>`,
    cells: (x) => html`<td>${x.name}</td><td><code>${x.id}</code></td><td>${when(x.createdAt)}</td>`,
    deleteLabel: (x) => `Delete segment ${x.name}`,
    add: (deps, actor, f) =>
      createSegment(deps, actor.team.id, validate(CreateSegmentRequest, { name: f.name ?? '' }).name),
    remove: (deps, actor, id) => deleteSegment(deps, actor.team.id, id),
  });
  registerSection(app, {
    path: 'topics',
    title: 'Topics',
    heads: ['Name', 'Default', 'Visibility', 'Created'],
    empty: 'No topics yet.',
    list: (deps, teamId, page) => listTopics(deps, teamId, page),
    fields: html`<label>Name <input name="name" required${limitAttrs(fieldLimits(CreateTopicRequest, 'name'))}></label><label>Default <select name="default_subscription">${SUBSCRIPTIONS.map((s) => html`<option value="${s}">${s.replace('_', ' ')}</option>`)}</select></label><label>Visibility <select name="visibility">${TOPIC_VISIBILITIES.map((x) => html`<option>${x}</option>`)}</select></label><button>Add topic</button>`,
    cells: (x) =>
      html`<td>${x.name}</td><td>${x.defaultSubscription}</td><td>${x.visibility}</td><td>${when(x.createdAt)}</td>`,
    deleteLabel: (x) => `Delete topic ${x.name}`,
    add: (deps, actor, f) =>
      createTopic(
        deps,
        actor.team.id,
        validate(CreateTopicRequest, {
          name: f.name ?? '',
          default_subscription: f.default_subscription,
          visibility: f.visibility,
        }),
      ),
    remove: (deps, actor, id) => deleteTopic(deps, actor.team.id, id),
  });
  registerSection(app, {
    path: 'properties',
    title: 'Contact properties',
    heads: ['Key', 'Type', 'Fallback', 'Created'],
    empty: 'No contact properties yet.',
    list: (deps, teamId, page) => listContactProperties(deps, teamId, page),
    fields: html`<label>Key <input name="key" required${limitAttrs(fieldLimits(CreateContactPropertyRequest, 'key'))}></label><label>Type <select name="type"><option>string</option><option>number</option></select></label><label>Fallback <input name="fallback_value"></label><button>Add property</button>`,
    cells: (x) =>
      html`<td><code>${x.key}</code></td><td>${x.type}</td><td>${x.fallbackValue ?? ''}</td><td>${when(x.createdAt)}</td>`,
    deleteLabel: (x) => `Delete property ${x.key}`,
    add: (deps, actor, f) =>
      createContactProperty(
        deps,
        actor.team.id,
        validate(CreateContactPropertyRequest, {
          key: f.key ?? '',
          type: f.type,
          fallback_value: f.fallback_value ? (f.type === 'number' ? Number(f.fallback_value) : f.fallback_value) : null,
        }),
      ),
    remove: (deps, actor, id) => deleteContactProperty(deps, actor.team.id, id),
  });
  registerSection(app, {
    path: 'suppressions',
    title: 'Suppressions',
    heads: ['Address', 'Origin', 'Added'],
    empty: 'No suppressed addresses.',
    list: (deps, teamId, page) => listSuppressions(deps, teamId, page),
    fields: html`<label>Email <input type="email" name="email" required></label><button>Suppress address</button>`,
    cells: (x) => html`<td>${x.email}</td><td>${x.origin}</td><td>${when(x.createdAt)}</td>`,
    deleteLabel: (x) => `Delete the suppression of ${x.email}`,
    add: (deps, actor, f) =>
      addSuppression(deps, {
        teamId: actor.team.id,
        email: validate(AddSuppressionRequest, { email: f.email ?? '' }).email,
        origin: 'manual',
        source: 'dashboard',
      }),
    remove: (deps, actor, id) => removeSuppression(deps, actor.team.id, id, 'dashboard'),
  });
};
