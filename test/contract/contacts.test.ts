import { describe, expect, it } from 'vitest';
import { keys } from '@mailstack/core/table/keys';
import { getItem } from '@mailstack/core/table/ops';
import { call, newTeam, testDeps } from '../support/local.ts';
import { eventsOf } from '../support/events.ts';
import { insertContacts } from '@mailstack/core/domain/contacts/write-contact';
import { startReceiver } from '../support/receiver.ts';
import { expectReferenceShape } from '../support/openapi.ts';
import { waitFor } from '../support/wait.ts';

describe('contacts through the official SDK', () => {
  it('creates, gets (by id and by email, case-insensitively), lists, updates and deletes a contact', async () => {
    const { resend } = await newTeam();
    await resend.contactProperties.create({ key: 'plan', type: 'string', fallbackValue: 'free' } as any);
    const created = await resend.contacts.create({
      email: 'Jane+news@Example.com',
      firstName: 'Jane',
      properties: { plan: 'pro' },
    } as any);
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'contact', id: expect.any(String) });
    const id = created.data!.id;

    const byEmail = await resend.contacts.get({ email: 'jane+news@example.com' });
    expect(byEmail.data).toMatchObject({
      object: 'contact',
      id,
      email: 'Jane+news@Example.com',
      first_name: 'Jane',
      last_name: null,
      unsubscribed: false,
      properties: { plan: { type: 'string', value: 'pro' } },
    });
    expectReferenceShape('GET', '/contacts/{id}', 200, byEmail.data);
    const byId = await resend.contacts.get(id);
    expect(byId.error).toBeNull();
    expect(byId.data!.id).toBe(id);

    const listed = await resend.contacts.list();
    expectReferenceShape('GET', '/contacts', 200, listed.data);
    expect(listed.data!.data.map((c) => c.id)).toEqual([id]);

    expect(
      (await resend.contacts.update({ id, lastName: 'Doe', properties: { plan: null } } as any)).data,
    ).toMatchObject({ object: 'contact', id });
    const after = (await resend.contacts.get(id)).data!;
    expect(after).toMatchObject({
      last_name: 'Doe',
      first_name: 'Jane',
      properties: { plan: { type: 'string', value: 'free' } },
    });
    // A key without a fallback is left out once null removes its value: a value is a string or a number, never null.
    await resend.contactProperties.create({ key: 'seats', type: 'number' } as any);
    expect((await resend.contacts.get(id)).data!.properties).toEqual({ plan: { type: 'string', value: 'free' } });
    await resend.contacts.update({ id, properties: { seats: 3 } } as any);
    expect((await resend.contacts.get(id)).data!.properties).toEqual({
      plan: { type: 'string', value: 'free' },
      seats: { type: 'number', value: 3 },
    });
    await resend.contacts.update({ id, properties: { seats: null } } as any);
    expect((await resend.contacts.get(id)).data!.properties).toEqual({ plan: { type: 'string', value: 'free' } });
    await resend.contacts.update({ id, firstName: null } as any);
    expect((await resend.contacts.get(id)).data!.first_name).toBeNull();

    const removed = await resend.contacts.remove({ email: 'JANE+NEWS@example.com' });
    expect(removed.data).toMatchObject({ object: 'contact', contact: id, id, deleted: true });
    expect((await resend.contacts.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('refuses a second contact with the same email in any case with conflict', async () => {
    const { resend } = await newTeam();
    await resend.contacts.create({ email: 'dup@example.com' });
    expect((await resend.contacts.create({ email: 'DUP@example.com' })).error).toMatchObject({
      statusCode: 409,
      name: 'conflict',
    });
  });

  it.each([
    ['an undeclared property', { email: 'a@example.com', properties: { colour: 'red' } }, 'colour'],
    ['a property of the wrong type', { email: 'a@example.com', properties: { age: 'old' } }, 'age'],
    ['a malformed email', { email: 'not-an-address' }, 'email'],
    ['an unknown field', { email: 'a@example.com', nickname: 'J' }, 'nickname'],
  ])('refuses %s with validation_error', async (_case, body, field) => {
    const { secret, resend } = await newTeam();
    await resend.contactProperties.create({ key: 'age', type: 'number' } as any);
    const out = await call('POST', '/contacts', { key: secret, body });
    expect(out.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(out.json.message).toContain(field);
  });

  it('records contact events with source api, and nothing for a write that restates stored values', async () => {
    const { resend, team } = await newTeam();
    const { data } = await resend.contacts.create({ email: 'ev@example.com', firstName: 'Ev' });
    await resend.contacts.update({ id: data!.id, firstName: 'Ev' });
    const stored = await testDeps().tableStore.get({
      TableName: testDeps().table,
      Key: keys.contact.item(team.id, data!.id),
    });
    await resend.contacts.update({ id: data!.id, unsubscribed: true });
    await resend.contacts.update({ id: data!.id, unsubscribed: false });
    await resend.contacts.remove(data!.id);
    const events = await eventsOf(team.id);
    expect(events.map((e) => e.type)).toEqual([
      'contact.created',
      'contact.updated',
      'contact.unsubscribed',
      'contact.updated',
      'contact.resubscribed',
      'contact.deleted',
    ]);
    expect(events.every((e) => e.data.source === 'api')).toBe(true);
    expect(events[0]!.data).toMatchObject({
      id: data!.id,
      email: 'ev@example.com',
      first_name: 'Ev',
      unsubscribed: false,
    });
    expect(stored.Item!.updated_at).toBe(stored.Item!.created_at);
  });

  it("answers 404 for another team's contact on every route, by id or email", async () => {
    const owner = await newTeam();
    const stranger = await newTeam();
    const { data } = await owner.resend.contacts.create({ email: 'mine@example.com' });
    const seg = await stranger.resend.segments.create({ name: 'S' });
    for (const ref of [data!.id, 'mine@example.com']) {
      for (const [method, path, body] of [
        ['GET', `/contacts/${ref}`],
        ['PATCH', `/contacts/${ref}`, { first_name: 'X' }],
        ['DELETE', `/contacts/${ref}`],
        ['GET', `/contacts/${ref}/topics`],
        ['PATCH', `/contacts/${ref}/topics`, []],
        ['GET', `/contacts/${ref}/segments`],
        ['POST', `/contacts/${ref}/segments/${seg.data!.id}`],
        ['DELETE', `/contacts/${ref}/segments/${seg.data!.id}`],
        ['POST', `/contacts/${ref}/preferences-link`],
      ] as const) {
        const out = await call(method, path, { key: stranger.secret, ...(body !== undefined ? { body } : {}) });
        expect(out.json, `${method} ${path}`).toMatchObject({ statusCode: 404, name: 'not_found' });
      }
    }
    const ownSeg = await owner.resend.segments.create({ name: 'Mine' });
    for (const [method, path] of [
      ['GET', `/segments/${ownSeg.data!.id}`],
      ['DELETE', `/segments/${ownSeg.data!.id}`],
      ['GET', `/segments/${ownSeg.data!.id}/contacts`],
      ['GET', `/audiences/${ownSeg.data!.id}`],
      ['POST', `/audiences/${ownSeg.data!.id}/contacts`],
      ['GET', `/audiences/${ownSeg.data!.id}/contacts/mine@example.com`],
    ] as const) {
      const out = await call(method, path, {
        key: stranger.secret,
        ...(method === 'POST' ? { body: { email: 'z@example.com' } } : {}),
      });
      expect(out.json, `${method} ${path}`).toMatchObject({ statusCode: 404, name: 'not_found' });
    }
    const prop = await owner.resend.contactProperties.create({ key: 'tier', type: 'string' } as any);
    for (const [method, path, body] of [
      ['GET', `/contact-properties/${prop.data!.id}`],
      ['PATCH', `/contact-properties/${prop.data!.id}`, { fallback_value: 'x' }],
      ['DELETE', `/contact-properties/${prop.data!.id}`],
    ] as const) {
      const out = await call(method, path, { key: stranger.secret, ...(body !== undefined ? { body } : {}) });
      expect(out.json, `${method} ${path}`).toMatchObject({ statusCode: 404, name: 'not_found' });
    }
    const got = await call('POST', '/contacts/batch/get', {
      key: stranger.secret,
      body: { contacts: [{ id: data!.id }, { email: 'mine@example.com' }] },
    });
    expect(got.json).toMatchObject({ data: [], missing: [{ index: 0 }, { index: 1 }] });
    expect(
      (await call('POST', '/contacts/batch/remove', { key: stranger.secret, body: { ids: [data!.id] } })).json.data,
    ).toEqual([]);
    expect((await owner.resend.contacts.get(data!.id)).data!.id).toBe(data!.id);
  });
});

describe('segments and audiences', () => {
  it('creates, lists, gets and deletes segments, with audiences as aliases, and manages membership', async () => {
    const { resend, secret } = await newTeam();
    const seg = await resend.segments.create({ name: 'VIP' });
    expect(seg.data).toMatchObject({ object: 'segment', id: expect.any(String), name: 'VIP' });
    expect((await resend.segments.get(seg.data!.id)).data).toMatchObject({ object: 'segment', name: 'VIP' });
    expect((await resend.segments.list()).data!.data.map((s) => s.id)).toEqual([seg.data!.id]);
    expect((await call('GET', `/audiences/${seg.data!.id}`, { key: secret })).json).toMatchObject({
      object: 'audience',
      id: seg.data!.id,
    });

    const { data: c } = await resend.contacts.create({
      email: 'm@example.com',
      segments: [{ id: seg.data!.id }],
    } as any);
    expect((await resend.contacts.list({ segmentId: seg.data!.id })).data!.data.map((x) => x.id)).toEqual([c!.id]);
    expect((await resend.contacts.segments.list({ contactId: c!.id })).data!.data.map((s) => s.id)).toEqual([
      seg.data!.id,
    ]);
    const removed = await resend.contacts.segments.remove({ contactId: c!.id, segmentId: seg.data!.id });
    expect(removed.data).toMatchObject({ id: seg.data!.id, deleted: true });
    expect((await resend.contacts.list({ segmentId: seg.data!.id })).data!.data).toEqual([]);
    const added = await resend.contacts.segments.add({ email: 'm@example.com', segmentId: seg.data!.id });
    expect(added.data).toMatchObject({ id: seg.data!.id });

    const viaAudience = await resend.contacts.create({ audienceId: seg.data!.id, email: 'aud@example.com' } as any);
    expect(viaAudience.error).toBeNull();
    expect(
      (await call('GET', `/audiences/${seg.data!.id}/contacts/aud@example.com`, { key: secret })).json,
    ).toMatchObject({ email: 'aud@example.com' });
    expect((await resend.contacts.list({ segmentId: seg.data!.id })).data!.data).toHaveLength(2);
    expect((await resend.segments.remove(seg.data!.id)).data).toMatchObject({
      object: 'segment',
      id: seg.data!.id,
      deleted: true,
    });
    expect((await resend.contacts.get({ email: 'aud@example.com' })).data).toBeTruthy();
    const aud = await call('POST', '/audiences', { key: secret, body: { name: 'Old style' } });
    expect(aud.json).toMatchObject({ object: 'audience', name: 'Old style' });
    expect((await call('DELETE', `/audiences/${aud.json.id}`, { key: secret })).json).toMatchObject({
      object: 'audience',
      deleted: true,
    });
  });
});

describe('contact properties', () => {
  it('creates, lists, gets, updates the fallback of, and deletes a property', async () => {
    const { resend, secret } = await newTeam();
    const made = await resend.contactProperties.create({ key: 'company', type: 'string', fallbackValue: 'n/a' } as any);
    expect(made.data).toMatchObject({ object: 'contact_property', id: expect.any(String) });
    const id = made.data!.id;
    expect((await call('GET', `/contact-properties/${id}`, { key: secret })).json).toMatchObject({
      object: 'contact_property',
      id,
      key: 'company',
      type: 'string',
      fallback_value: 'n/a',
    });
    expect((await call('GET', '/contact-properties', { key: secret })).json.data).toHaveLength(1);
    expect(
      (await call('PATCH', `/contact-properties/${id}`, { key: secret, body: { fallback_value: 'none' } })).json,
    ).toMatchObject({ object: 'contact_property', id });
    expect(
      (await call('PATCH', `/contact-properties/${id}`, { key: secret, body: { fallback_value: 'x', type: 'number' } }))
        .json,
    ).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(
      (await call('POST', '/contact-properties', { key: secret, body: { key: 'company', type: 'string' } })).json,
    ).toMatchObject({ statusCode: 409, name: 'conflict' });
    expect(
      (
        await call('POST', '/contact-properties', {
          key: secret,
          body: { key: 'n', type: 'number', fallback_value: 'text' },
        })
      ).json,
    ).toMatchObject({ statusCode: 422 });
    expect(
      (await call('POST', '/contact-properties', { key: secret, body: { key: 'x'.repeat(201), type: 'string' } })).json,
    ).toMatchObject({ statusCode: 422 });
    expect((await call('DELETE', `/contact-properties/${id}`, { key: secret })).json).toEqual({
      object: 'contact_property',
      id,
      deleted: true,
    });
  });
});

describe('batch operations', () => {
  it('creates 1,000 contacts in one strict batch, in request order, with counts summing to the request', async () => {
    const { secret, resend } = await newTeam({ plan: 'scale' });
    const items = Array.from({ length: 1000 }, (_, i) => ({ email: `user${i}@example.com`, first_name: `U${i}` }));
    const started = Date.now();
    const out = await call('POST', '/contacts/batch', { key: secret, body: items });
    console.log(`batch-created 1,000 contacts in ${Date.now() - started} ms`);
    expect(out.status).toBe(200);
    expect(out.json.counts).toEqual({ created: 1000, updated: 0, skipped: 0, failed: 0 });
    expect(out.json.data.map((d: any) => d.index)).toEqual(items.map((_, i) => i));
    expect(out.json).not.toHaveProperty('errors');
    const page = await resend.contacts.list({ limit: 100 });
    expect(page.data!.data).toHaveLength(100);
    expect(page.data!.has_more).toBe(true);
  }, 120_000);

  it("writes a batch's new contacts many to a transaction, and an email taken between the batch's read and its write stays its first contact's", async () => {
    const { team, secret, resend } = await newTeam({ plan: 'scale' });
    const first = (await resend.contacts.create({ email: 'taken@example.com', firstName: 'First' })).data!.id;
    // Straight to the writer, as a batch that read the guards before this email was taken.
    const inputs = Array.from({ length: 60 }, (_, i) => ({
      email: i === 17 ? 'TAKEN@example.com' : `packed${i}@example.com`,
      first_name: `P${i}`,
    }));
    const out = await insertContacts(testDeps(), team, inputs, 'api');
    expect(out[17]).toEqual({ taken: true });
    expect(out.filter((r) => 'contact' in r)).toHaveLength(59);
    expect((await resend.contacts.get({ email: 'taken@example.com' })).data).toMatchObject({
      id: first,
      first_name: 'First',
    });
    expect((await resend.contacts.get({ email: 'packed59@example.com' })).data).toMatchObject({ first_name: 'P59' });
    const created = (await eventsOf(team.id)).filter((e) => e.type === 'contact.created');
    expect(created.map((e) => e.data.email).sort()).toEqual(
      ['taken@example.com', ...inputs.filter((_, i) => i !== 17).map((i) => i.email)].sort(),
    );
    expect((await call('GET', '/contacts?limit=100', { key: secret })).json.data).toHaveLength(60);
  });

  it('takes 1,000 items in permissive mode (invalid ones reported) and upserts 1,000 existing contacts', async () => {
    const { secret, resend } = await newTeam({ plan: 'scale' });
    const items = Array.from({ length: 1000 }, (_, i) =>
      i % 100 === 7 ? { email: `broken-${i}` } : { email: `p${i}@example.com` },
    );
    const permissive = await call('POST', '/contacts/batch', {
      key: secret,
      body: items,
      headers: { 'x-batch-validation': 'permissive' },
    });
    expect(permissive.json.counts).toEqual({ created: 990, updated: 0, skipped: 0, failed: 10 });
    expect(permissive.json.errors.map((e: any) => e.index)).toEqual(Array.from({ length: 10 }, (_, k) => k * 100 + 7));
    const upserts = Array.from({ length: 1000 }, (_, i) => ({
      email: `P${i}@example.com`,
      first_name: i % 2 ? 'Odd' : undefined,
    }));
    const upsert = await call('POST', '/contacts/batch?on_conflict=upsert', { key: secret, body: upserts });
    expect(upsert.json.counts).toEqual({ created: 10, updated: 490, skipped: 500, failed: 0 });
    expect(upsert.json.data.map((d: any) => d.index)).toEqual(upserts.map((_, i) => i));
    expect((await resend.contacts.get({ email: 'p1@example.com' })).data!.first_name).toBe('Odd');
    const strict = await call('POST', '/contacts/batch', { key: secret, body: items });
    expect(strict.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(strict.json.message).toContain('7');
  }, 120_000);

  it('reports invalid items by index in permissive mode and refuses the whole batch in strict mode', async () => {
    const { secret } = await newTeam();
    const body = [{ email: 'ok@example.com' }, { email: 'broken' }, { email: 'fine@example.com' }];
    const strict = await call('POST', '/contacts/batch', { key: secret, body });
    expect(strict.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const permissive = await call('POST', '/contacts/batch', {
      key: secret,
      body,
      headers: { 'x-batch-validation': 'permissive' },
    });
    expect(permissive.json.counts).toEqual({ created: 2, updated: 0, skipped: 0, failed: 1 });
    expect(permissive.json.errors).toEqual([{ index: 1, message: expect.stringContaining('email') }]);
    // The failed item is counted and named in `errors`; `data` lists the contacts written or skipped.
    expect(permissive.json.data.map((d: any) => [d.index, d.status])).toEqual([
      [0, 'created'],
      [2, 'created'],
    ]);
  });

  it('skips existing emails by default and updates them with on_conflict=upsert', async () => {
    const { secret, resend } = await newTeam();
    await resend.contacts.create({ email: 'old@example.com', firstName: 'Old' });
    const skip = await call('POST', '/contacts/batch', {
      key: secret,
      body: [{ email: 'OLD@example.com', first_name: 'New' }, { email: 'new@example.com' }],
    });
    expect(skip.json.data.map((d: any) => d.status)).toEqual(['skipped', 'created']);
    const upsert = await call('POST', '/contacts/batch?on_conflict=upsert', {
      key: secret,
      body: [{ email: 'old@example.com', first_name: 'New' }, { email: 'new@example.com' }],
    });
    expect(upsert.json.data.map((d: any) => d.status)).toEqual(['updated', 'skipped']);
    expect((await resend.contacts.get({ email: 'old@example.com' })).data!.first_name).toBe('New');
  });

  it('gets contacts in request order with missing ones by index', async () => {
    const { secret, resend } = await newTeam();
    const a = await resend.contacts.create({ email: 'a@example.com' });
    const out = await call('POST', '/contacts/batch/get', {
      key: secret,
      body: {
        contacts: [{ email: 'nobody@example.com' }, { id: a.data!.id }, { email: 'A@example.com' }],
        include: ['properties', 'topics'],
      },
    });
    expect(out.json.data.map((c: any) => c.id)).toEqual([a.data!.id, a.data!.id]);
    expect(out.json.data[0]).toHaveProperty('properties');
    expect(out.json.data[0]).toHaveProperty('topics');
    expect(out.json.missing).toEqual([{ index: 0, id: null, email: 'nobody@example.com' }]);
  });

  it('removes contacts by id and email, and with erase replaces the address in email history, events and webhook delivery logs', {
    timeout: 40_000,
  }, async () => {
    const { secret, resend, team } = await newTeam();
    const rx = await startReceiver();
    const hook = await call('POST', '/webhooks', {
      key: secret,
      body: { endpoint: rx.url, events: ['contact.created'] },
    });
    expect(hook.status).toBe(201);
    const a = await resend.contacts.create({ email: 'erase-me@example.com' });
    await resend.contacts.create({ email: 'keep@example.com' });
    await rx.waitFor(2);
    expect(rx.received.map((r) => r.json.data.email).sort()).toEqual(['erase-me@example.com', 'keep@example.com']);
    const d = testDeps();
    const emailId = crypto.randomUUID();
    await d.tableStore.put({
      TableName: d.table,
      Item: {
        ...keys.email.item(team.id, emailId),
        ...keys.email.listing(team.id, emailId),
        type: 'email',
        id: emailId,
        team_id: team.id,
        to: ['Erase Me <erase-me@example.com>'],
        cc: [],
        bcc: [],
        reply_to: [],
      },
    });
    const out = await call('POST', '/contacts/batch/remove', { key: secret, body: { ids: [a.data!.id], erase: true } });
    expect(out.json.data).toEqual([{ object: 'contact', contact: a.data!.id, id: a.data!.id, deleted: true }]);
    // The erase runs as a job after the answer; the contact's contact.erased event says when it finished.
    const erased = (
      await waitFor(
        () => eventsOf(team.id),
        (all) => all.some((e) => e.type === 'contact.erased'),
        { what: 'the contact.erased event' },
      )
    ).find((e) => e.type === 'contact.erased');
    expect(erased?.data).toMatchObject({ id: a.data!.id, email: '[erased]', finished_at: expect.any(String) });
    const email = await d.tableStore.get({ TableName: d.table, Key: keys.email.item(team.id, emailId) });
    expect(email.Item!.to).toEqual(['[erased]']);
    const events = await eventsOf(team.id);
    expect(JSON.stringify(events)).not.toContain('erase-me@example.com');
    expect(events.find((e) => e.type === 'contact.deleted')!.data.email).toBe('[erased]');
    // The endpoint's delivery log keeps each body as sent: the erased address is gone from it too (a replay sends [erased]).
    const log = await call('GET', `/webhooks/${hook.json.id}/events`, { key: secret });
    expect(log.json.data).toHaveLength(2);
    const bodies = await Promise.all(
      log.json.data.map(
        async (e: any) =>
          (await call('GET', `/webhooks/${hook.json.id}/events/${e.event_id ?? e.id}`, { key: secret })).json,
      ),
    );
    expect(JSON.stringify(bodies)).not.toContain('erase-me@example.com');
    expect(JSON.stringify(bodies)).toContain('[erased]');
    expect(JSON.stringify(bodies)).toContain('keep@example.com');
    expect(
      (await call('POST', '/contacts/batch/remove', { key: secret, body: { emails: ['KEEP@example.com'] } })).json.data,
    ).toHaveLength(1);
    expect((await call('POST', '/contacts/batch/remove', { key: secret, body: {} })).json).toMatchObject({
      statusCode: 422,
    });
  });
});

describe('plan contact caps (cloud mode)', () => {
  it('removes a contact named more than once in one batch (an address twice, in another case) once: one entry, one contact.deleted, one slot given back', async () => {
    const { secret, resend, team } = await newTeam({ plan: 'scale' });
    const items = Array.from({ length: 40 }, (_, i) => ({ email: `twice${i}@example.com` }));
    expect((await call('POST', '/contacts/batch', { key: secret, body: items })).json.counts.created).toBe(40);
    const ids = await Promise.all(items.map(async (c) => (await resend.contacts.get({ email: c.email })).data!.id));

    const out = await call('POST', '/contacts/batch/remove', {
      key: secret,
      // Each address twice in a row: the two are removed at the same time.
      body: { emails: items.flatMap((c) => [c.email, c.email.toUpperCase()]) },
    });

    expect(out.status, out.text).toBe(200);
    expect(out.json.data.map((d: any) => d.id).sort()).toEqual([...ids].sort());
    const counter = await getItem(testDeps(), keys.contact.counter(team.id));
    expect(Number(counter?.count)).toBe(0);
    // The events are written with the deletes.
    const deleted = (await eventsOf(team.id)).filter((e) => e.type === 'contact.deleted');
    expect(deleted.map((e) => e.data.id).sort()).toEqual([...ids].sort());
  }, 60_000);

  it('refuses new contacts past the free cap on every create route while existing contacts still update, and fails only the new items of a batch', async () => {
    const { secret, resend } = await newTeam({ plan: 'free' });
    const fill = Array.from({ length: 995 }, (_, i) => ({ email: `c${i}@example.com` }));
    expect((await call('POST', '/contacts/batch', { key: secret, body: fill })).json.counts.created).toBe(995);
    const mixed = [
      ...Array.from({ length: 3 }, (_, i) => ({ email: `c${i}@example.com`, first_name: 'Updated' })),
      ...Array.from({ length: 7 }, (_, i) => ({ email: `new${i}@example.com` })),
    ];
    const out = await call('POST', '/contacts/batch?on_conflict=upsert', {
      key: secret,
      body: mixed,
      headers: { 'x-batch-validation': 'permissive' },
    });
    expect(out.json.counts).toEqual({ created: 5, updated: 3, skipped: 0, failed: 2 });
    expect(out.json.errors.map((e: any) => e.index)).toEqual([8, 9]);
    expect(out.json.errors[0].message).toContain('plan');
    // Strict mode: the new item past the cap fails, the update goes on, and `errors` is for permissive mode only.
    const strict = await call('POST', '/contacts/batch?on_conflict=upsert', {
      key: secret,
      body: [{ email: 'c1@example.com', first_name: 'Strict' }, { email: 'strict-new@example.com' }],
    });
    expect(strict.status).toBe(200);
    expect(strict.json.counts).toEqual({ created: 0, updated: 1, skipped: 0, failed: 1 });
    expect(strict.json).not.toHaveProperty('errors');
    expect(strict.json.data).toEqual([{ object: 'contact', index: 0, id: expect.any(String), status: 'updated' }]);
    const single = await resend.contacts.create({ email: 'one-more@example.com' });
    expect(single.error).toMatchObject({ statusCode: 403, name: 'plan_limit_reached' });
    // An email the team already has is a conflict at the cap too: it would add no contact.
    expect((await resend.contacts.create({ email: 'c1@example.com' })).error).toMatchObject({
      statusCode: 409,
      name: 'conflict',
    });
    const seg = await resend.segments.create({ name: 'S' });
    expect(
      (await call('POST', `/audiences/${seg.data!.id}/contacts`, { key: secret, body: { email: 'aud@example.com' } }))
        .json,
    ).toMatchObject({ statusCode: 403, name: 'plan_limit_reached' });
    expect((await resend.contacts.update({ email: 'c5@example.com', firstName: 'Still works' })).error).toBeNull();
    await resend.contacts.remove({ email: 'c6@example.com' });
    expect((await resend.contacts.create({ email: 'one-more@example.com' })).error).toBeNull();
  }, 120_000);
});
