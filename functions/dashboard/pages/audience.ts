import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import { CreateContactPropertyRequest, CreateContactRequest, CreateSegmentRequest } from '@mailstack/core/schemas/contacts';
import { CreateTopicRequest } from '@mailstack/core/schemas/topics';
import { AddSuppressionRequest } from '@mailstack/core/schemas/suppressions';
import { listContacts } from '@mailstack/core/domain/contacts/contact-views';
import { createContact, deleteContact } from '@mailstack/core/domain/contacts/write-contact';
import { createSegment, deleteSegment, listSegments } from '@mailstack/core/domain/segments/segments';
import { createTopic, deleteTopic, listTopics } from '@mailstack/core/domain/topics/topics';
import { createContactProperty, deleteContactProperty, listContactProperties } from '@mailstack/core/domain/contacts/contact-properties';
import { listSuppressions, removeSuppression } from '@mailstack/core/domain/suppressions/manage-suppressions';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';
import { authorize } from '@mailstack/core/domain/people/roles';
import type { DashboardEnv, Ctx } from '../app.ts';
import { button, postForm, table, teamPage, when } from '../view.ts';

/** The list cursor of a page (`?after=<id>`), validated. */
const pageOf = (c: Ctx) => {
  const after = c.req.query('after');
  return { limit: 50, after: after && /^[0-9a-f-]{36}$/.test(after) ? after : undefined };
};
const older = (c: Ctx, hasMore: boolean, last: string | undefined) => (hasMore && last ? html`<p class="pager"><a href="${c.req.path}?after=${last}">Older</a></p>` : '');
const back = (c: Ctx, section: string, notice: string) => c.redirect(`/t/${c.get('actor').team.id}/${section}?notice=${notice}`, 303);
const canWrite = (c: Ctx) => authorize(c.get('actor').role, 'audience:write');

export const registerAudience = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/contacts', async (c) => {
    const { contacts, hasMore } = await listContacts(c.get('deps'), c.get('actor').team.id, pageOf(c));
    const { csrf } = c.get('ctx');
    const t = `/t/${c.get('actor').team.id}`;
    return c.html(teamPage(c.get('ctx'), 'Contacts', html`
${postForm(csrf, `${t}/contacts`, html`<label>Email <input type="email" name="email" required></label><label>First name <input name="first_name"></label><label>Last name <input name="last_name"></label><button>Add contact</button>`)}
${table('Contacts', ['Email', 'Name', 'Subscribed', 'Added', ''], contacts.map((x) => html`<tr><td>${x.email}</td><td>${[x.firstName, x.lastName].filter(Boolean).join(' ')}</td><td>${x.unsubscribed ? 'unsubscribed' : 'subscribed'}</td><td>${when(x.createdAt)}</td><td>${button(csrf, `${t}/contacts/${x.id}/delete`, 'Delete', 'danger', `Delete ${x.email}`)}</td></tr>`), 'No contacts yet.')}
${older(c, hasMore, contacts.at(-1)?.id)}`, c.req.query('notice')));
  });
  app.post('/t/:team/contacts', async (c) => {
    canWrite(c);
    const f = c.get('form');
    const input = validate(CreateContactRequest, { email: f.email ?? '', ...(f.first_name ? { first_name: f.first_name } : {}), ...(f.last_name ? { last_name: f.last_name } : {}) });
    await createContact(c.get('deps'), c.get('actor').team, input, 'dashboard');
    return back(c, 'contacts', 'created');
  });
  app.post('/t/:team/contacts/:id/delete', async (c) => {
    canWrite(c);
    await deleteContact(c.get('deps'), c.get('actor').team.id, c.req.param('id'), 'dashboard');
    return back(c, 'contacts', 'deleted');
  });

  app.get('/t/:team/segments', async (c) => {
    const { segments, hasMore } = await listSegments(c.get('deps'), c.get('actor').team.id, pageOf(c));
    const { csrf } = c.get('ctx');
    const t = `/t/${c.get('actor').team.id}`;
    return c.html(teamPage(c.get('ctx'), 'Segments', html`
${postForm(csrf, `${t}/segments`, html`<label>Name <input name="name" required maxlength="200"></label><button>Add segment</button>`)}
${table('Segments', ['Name', 'Id', 'Created', ''], segments.map((s) => html`<tr><td>${s.name}</td><td><code>${s.id}</code></td><td>${when(s.createdAt)}</td><td>${button(csrf, `${t}/segments/${s.id}/delete`, 'Delete', 'danger', `Delete segment ${s.name}`)}</td></tr>`), 'No segments yet.')}
${older(c, hasMore, segments.at(-1)?.id)}`, c.req.query('notice')));
  });
  app.post('/t/:team/segments', async (c) => {
    canWrite(c);
    await createSegment(c.get('deps'), c.get('actor').team.id, validate(CreateSegmentRequest, { name: c.get('form').name ?? '' }).name);
    return back(c, 'segments', 'created');
  });
  app.post('/t/:team/segments/:id/delete', async (c) => {
    canWrite(c);
    await deleteSegment(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    return back(c, 'segments', 'deleted');
  });

  app.get('/t/:team/topics', async (c) => {
    const { topics, hasMore } = await listTopics(c.get('deps'), c.get('actor').team.id, pageOf(c));
    const { csrf } = c.get('ctx');
    const t = `/t/${c.get('actor').team.id}`;
    return c.html(teamPage(c.get('ctx'), 'Topics', html`
${postForm(csrf, `${t}/topics`, html`<label>Name <input name="name" required maxlength="50"></label><label>Default <select name="default_subscription"><option value="opt_in">opt in</option><option value="opt_out">opt out</option></select></label><label>Visibility <select name="visibility"><option>public</option><option>private</option></select></label><button>Add topic</button>`)}
${table('Topics', ['Name', 'Default', 'Visibility', 'Created', ''], topics.map((x) => html`<tr><td>${x.name}</td><td>${x.defaultSubscription}</td><td>${x.visibility}</td><td>${when(x.createdAt)}</td><td>${button(csrf, `${t}/topics/${x.id}/delete`, 'Delete', 'danger', `Delete topic ${x.name}`)}</td></tr>`), 'No topics yet.')}
${older(c, hasMore, topics.at(-1)?.id)}`, c.req.query('notice')));
  });
  app.post('/t/:team/topics', async (c) => {
    canWrite(c);
    const f = c.get('form');
    await createTopic(c.get('deps'), c.get('actor').team.id, validate(CreateTopicRequest, { name: f.name ?? '', default_subscription: f.default_subscription, visibility: f.visibility }));
    return back(c, 'topics', 'created');
  });
  app.post('/t/:team/topics/:id/delete', async (c) => {
    canWrite(c);
    await deleteTopic(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    return back(c, 'topics', 'deleted');
  });

  app.get('/t/:team/properties', async (c) => {
    const { properties, hasMore } = await listContactProperties(c.get('deps'), c.get('actor').team.id, pageOf(c));
    const { csrf } = c.get('ctx');
    const t = `/t/${c.get('actor').team.id}`;
    return c.html(teamPage(c.get('ctx'), 'Contact properties', html`
${postForm(csrf, `${t}/properties`, html`<label>Key <input name="key" required pattern="[A-Za-z0-9_]+" maxlength="50"></label><label>Type <select name="type"><option>string</option><option>number</option></select></label><label>Fallback <input name="fallback_value"></label><button>Add property</button>`)}
${table('Contact properties', ['Key', 'Type', 'Fallback', 'Created', ''], properties.map((p) => html`<tr><td><code>${p.key}</code></td><td>${p.type}</td><td>${p.fallbackValue ?? ''}</td><td>${when(p.createdAt)}</td><td>${button(csrf, `${t}/properties/${p.id}/delete`, 'Delete', 'danger', `Delete property ${p.key}`)}</td></tr>`), 'No contact properties yet.')}
${older(c, hasMore, properties.at(-1)?.id)}`, c.req.query('notice')));
  });
  app.post('/t/:team/properties', async (c) => {
    canWrite(c);
    const f = c.get('form');
    const fallback = f.fallback_value ? (f.type === 'number' ? Number(f.fallback_value) : f.fallback_value) : null;
    await createContactProperty(c.get('deps'), c.get('actor').team.id, validate(CreateContactPropertyRequest, { key: f.key ?? '', type: f.type, fallback_value: fallback }));
    return back(c, 'properties', 'created');
  });
  app.post('/t/:team/properties/:id/delete', async (c) => {
    canWrite(c);
    await deleteContactProperty(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    return back(c, 'properties', 'deleted');
  });

  app.get('/t/:team/suppressions', async (c) => {
    const { suppressions, hasMore } = await listSuppressions(c.get('deps'), c.get('actor').team.id, pageOf(c));
    const { csrf } = c.get('ctx');
    const t = `/t/${c.get('actor').team.id}`;
    return c.html(teamPage(c.get('ctx'), 'Suppressions', html`
${postForm(csrf, `${t}/suppressions`, html`<label>Email <input type="email" name="email" required></label><button>Suppress address</button>`)}
${table('Suppressions', ['Address', 'Origin', 'Added', ''], suppressions.map((s) => html`<tr><td>${s.email}</td><td>${s.origin}</td><td>${when(s.createdAt)}</td><td>${button(csrf, `${t}/suppressions/${s.id}/delete`, 'Remove', 'danger', `Remove suppression of ${s.email}`)}</td></tr>`), 'No suppressed addresses.')}
${older(c, hasMore, suppressions.at(-1)?.id)}`, c.req.query('notice')));
  });
  app.post('/t/:team/suppressions', async (c) => {
    canWrite(c);
    await addSuppression(c.get('deps'), { teamId: c.get('actor').team.id, email: validate(AddSuppressionRequest, { email: c.get('form').email ?? '' }).email, origin: 'manual', source: 'dashboard' });
    return back(c, 'suppressions', 'created');
  });
  app.post('/t/:team/suppressions/:id/delete', async (c) => {
    canWrite(c);
    await removeSuppression(c.get('deps'), c.get('actor').team.id, c.req.param('id'), 'dashboard');
    return back(c, 'suppressions', 'removed');
  });
};
