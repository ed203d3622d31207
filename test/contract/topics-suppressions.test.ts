import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';
import { eventsOf } from '../support/events.ts';
import { expectReferenceShape } from '../support/openapi.ts';

describe('topics', () => {
  it('creates (private by default), lists, gets, updates and deletes a topic through the SDK', async () => {
    const { resend, secret } = await newTeam();
    const made = await resend.topics.create({
      name: 'Product news',
      defaultSubscription: 'opt_in',
      description: 'Monthly',
    } as any);
    expect(made.data).toMatchObject({
      object: 'topic',
      id: expect.any(String),
      name: 'Product news',
      default_subscription: 'opt_in',
      visibility: 'private',
      description: 'Monthly',
    });
    const id = made.data!.id;
    const got = await resend.topics.get(id);
    expect(got.data).toMatchObject({
      object: 'topic',
      id,
      name: 'Product news',
      description: 'Monthly',
      default_subscription: 'opt_in',
      visibility: 'private',
    });
    expectReferenceShape('GET', '/topics/{id}', 200, got.data);
    const listed = await resend.topics.list();
    expect(listed.data!.data.map((t: any) => t.id)).toEqual([id]);
    expect((await resend.topics.update({ id, name: 'News', visibility: 'public' } as any)).data).toMatchObject({
      object: 'topic',
      id,
    });
    expect((await resend.topics.get(id)).data).toMatchObject({ name: 'News', visibility: 'public' });
    expect(
      (await call('PATCH', `/topics/${id}`, { key: secret, body: { default_subscription: 'opt_out' } })).json,
    ).toMatchObject({ statusCode: 422, name: 'validation_error' });
    // A required field left out is named with what it takes.
    expect((await call('POST', '/topics', { key: secret, body: { name: 'x' } })).json).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: '`default_subscription`: is required: `opt_in` or `opt_out`.',
    });
    expect((await resend.topics.remove(id)).data).toMatchObject({ object: 'topic', id, deleted: true });
    expect((await resend.topics.get(id)).error).toMatchObject({ statusCode: 404 });
  });

  it('lists every topic of a contact in one answer (has_more: false), and pages only when asked', async () => {
    const { resend } = await newTeam();
    for (let i = 0; i < 25; i++)
      expect((await resend.topics.create({ name: `T${i}`, defaultSubscription: 'opt_in' } as any)).error).toBeNull();
    const { data: c } = await resend.contacts.create({ email: 'many@example.com' });
    const whole = await resend.contacts.topics.list({ id: c!.id });
    expect(whole.data).toMatchObject({ object: 'list', has_more: false });
    expect(whole.data!.data).toHaveLength(25);
    const page = await resend.contacts.topics.list({ id: c!.id, limit: 10 });
    expect(page.data).toMatchObject({ has_more: true });
    expect(page.data!.data.map((t) => t.id)).toEqual(whole.data!.data.slice(0, 10).map((t) => t.id));
  });

  it("names the choice at fault when a contact's topics update is refused (the body's shape being right)", async () => {
    // Prepare
    const { resend } = await newTeam();
    const news = (await resend.topics.create({ name: 'News', defaultSubscription: 'opt_in' } as any)).data!.id;
    const { data: c } = await resend.contacts.create({ email: 'choice@example.com' });

    // Act
    const bad = await resend.contacts.topics.update({
      id: c!.id,
      topics: [{ id: news, subscription: 'maybe' as any }],
    });
    const missing = await resend.contacts.topics.update({ id: c!.id, topics: [{ id: news } as any] });

    // Assess
    expect(bad.error).toMatchObject({
      statusCode: 422,
      name: 'validation_error',
      message: '`0.subscription`: must be `opt_in` or `opt_out`.',
    });
    expect(missing.error).toMatchObject({
      statusCode: 422,
      name: 'validation_error',
      message: '`0.subscription` is required: it must be `opt_in` or `opt_out`.',
    });
  });

  it("reports each contact's effective subscription and emits opt-in/opt-out events only when it flips", async () => {
    const { resend, secret, team } = await newTeam();
    const news = (await resend.topics.create({ name: 'News', defaultSubscription: 'opt_in' } as any)).data!.id;
    const promos = (await resend.topics.create({ name: 'Promos', defaultSubscription: 'opt_out' } as any)).data!.id;
    const { data: c } = await resend.contacts.create({ email: 't@example.com' });
    const before = await resend.contacts.topics.list({ id: c!.id });
    expect(before.data!.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: news, subscription: 'opt_in', explicit: false }),
        expect.objectContaining({ id: promos, subscription: 'opt_out', explicit: false }),
      ]),
    );
    // opt_in on a default-opt_in topic: explicit now, but no flip, no event.
    const out = await resend.contacts.topics.update({
      email: 't@example.com',
      topics: [
        { id: news, subscription: 'opt_in' },
        { id: promos, subscription: 'opt_in' },
      ],
    });
    expect(out.data).toMatchObject({ id: c!.id });
    await call('PATCH', `/contacts/${c!.id}/topics`, {
      key: secret,
      body: { topics: [{ id: news, subscription: 'opt_out' }] },
    });
    const after = (await resend.contacts.topics.list({ email: 't@example.com' })).data!.data;
    expect(after).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: news, subscription: 'opt_out', explicit: true }),
        expect.objectContaining({ id: promos, subscription: 'opt_in', explicit: true }),
      ]),
    );
    // The same choice again changes nothing: no event of any kind.
    await call('PATCH', `/contacts/${c!.id}/topics`, {
      key: secret,
      body: { topics: [{ id: news, subscription: 'opt_out' }] },
    });
    const all = await eventsOf(team.id);
    const events = all.filter((e) => e.type.startsWith('contact.topic_'));
    expect(events.map((e) => [e.type, e.data.topic_id])).toEqual([
      ['contact.topic_opt_in', promos],
      ['contact.topic_opt_out', news],
    ]);
    // The reference's contact.topics.updated: once per call that changed a recorded choice, with the choices made.
    const updated = all.filter((e) => e.type === 'contact.topics.updated');
    expect(updated.map((e) => e.data.topics)).toEqual([
      [
        { id: news, subscription: 'opt_in' },
        { id: promos, subscription: 'opt_in' },
      ],
      [{ id: news, subscription: 'opt_out' }],
    ]);
    expect(updated[0]!.data).toMatchObject({ email: 't@example.com', id: c!.id, source: 'api' });
    expect(events[0]!.data).toMatchObject({ topic_name: 'Promos', source: 'api', email: 't@example.com' });
    expect(
      (
        await call('PATCH', `/contacts/${c!.id}/topics`, {
          key: secret,
          body: [{ id: crypto.randomUUID(), subscription: 'opt_in' }],
        })
      ).json,
    ).toMatchObject({ statusCode: 422 });
  });
});

describe('suppressions', () => {
  it('adds, lists by origin, gets by id or address, and removes entries, with events', async () => {
    const { resend, team } = await newTeam();
    const added = await resend.suppressions.add({ email: 'Block@Example.com' } as any);
    expect(added.data).toMatchObject({ object: 'suppression', id: expect.any(String) });
    const byAddress = await resend.suppressions.get('block@example.com');
    expect(byAddress.data).toMatchObject({
      object: 'suppression',
      id: added.data!.id,
      email: 'block@example.com',
      origin: 'manual',
      source_id: null,
    });
    expect((await resend.suppressions.get(added.data!.id)).data).toMatchObject({ email: 'block@example.com' });
    expect((await resend.suppressions.list()).data!.data.map((s: any) => s.id)).toEqual([added.data!.id]);
    expect((await resend.suppressions.list({ origin: 'bounce' } as any)).data!.data).toEqual([]);
    const again = await resend.suppressions.add({ email: 'block@example.com' } as any);
    expect(again.data!.id).toBe(added.data!.id);
    expect((await resend.suppressions.remove('block@example.com')).data).toMatchObject({
      object: 'suppression',
      id: added.data!.id,
      deleted: true,
    });
    expect((await resend.suppressions.get('block@example.com')).error).toMatchObject({ statusCode: 404 });
    const events = await eventsOf(team.id);
    expect(events.map((e) => e.type)).toEqual(['suppression.added', 'suppression.removed']);
    expect(events[0]!.data).toMatchObject({ email: 'block@example.com', origin: 'manual', source: 'api' });
  });

  it('adds and removes up to 1,000 addresses in a batch', async () => {
    const { resend, secret } = await newTeam();
    const emails = Array.from({ length: 30 }, (_, i) => `s${i}@example.com`);
    const added = await resend.suppressions.batch.add({ emails } as any);
    expect(added.data!.data).toHaveLength(30);
    const removed = await resend.suppressions.batch.remove({ emails: emails.slice(0, 10) } as any);
    expect(removed.data!.data).toHaveLength(10);
    expect((removed.data!.data as any[])[0]).toMatchObject({ object: 'suppression', deleted: true });
    const ids = (
      await call('POST', '/suppressions/batch/remove', { key: secret, body: { ids: [added.data!.data[20]!.id] } })
    ).json;
    expect(ids.data).toHaveLength(1);
    expect(
      (
        await call('POST', '/suppressions/batch/add', {
          key: secret,
          body: { emails: Array.from({ length: 1001 }, (_, i) => `x${i}@example.com`) },
        })
      ).json,
    ).toMatchObject({ statusCode: 422 });
    // The remove cap counts `emails` and `ids` together: 1,000 in all, not 1,000 of each.
    const mixed = await call('POST', '/suppressions/batch/remove', {
      key: secret,
      body: {
        ids: [added.data!.data[21]!.id],
        emails: Array.from({ length: 1000 }, (_, i) => `x${i}@example.com`),
      },
    });
    expect(mixed.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(mixed.json.message).toContain('At most 1000 suppressions per call');
    expect((await resend.suppressions.get(added.data!.data[21]!.id)).error).toBeNull();
  });

  it("answers 404 for another team's suppression, by id or address", async () => {
    const owner = await newTeam();
    const stranger = await newTeam();
    const { data } = await owner.resend.suppressions.add({ email: 'theirs@example.com' } as any);
    for (const ref of [data!.id, 'theirs@example.com']) {
      expect((await stranger.resend.suppressions.get(ref)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
      expect((await stranger.resend.suppressions.remove(ref)).error).toMatchObject({
        statusCode: 404,
        name: 'not_found',
      });
    }
    expect((await stranger.resend.suppressions.list()).data!.data).toEqual([]);
  });

  it("answers 404 for another team's topic on every route", async () => {
    const owner = await newTeam();
    const stranger = await newTeam();
    const { data } = await owner.resend.topics.create({ name: 'Mine', defaultSubscription: 'opt_in' } as any);
    expect((await stranger.resend.topics.get(data!.id)).error).toMatchObject({ statusCode: 404 });
    expect((await stranger.resend.topics.update({ id: data!.id, name: 'x' } as any)).error).toMatchObject({
      statusCode: 404,
    });
    expect((await stranger.resend.topics.remove(data!.id)).error).toMatchObject({ statusCode: 404 });
  });
});
