import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';
import { expectReferenceShape } from '../support/openapi.ts';
import { MAX_EVENT_PAYLOAD_BYTES } from '@mailstack/core/limits';

describe('custom events', () => {
  it('creates, lists, gets (by id and by name), updates and removes an event definition through the SDK', async () => {
    const { resend } = await newTeam();
    const made = await resend.events.create({ name: 'user.signed_up', schema: { plan: 'string', seats: 'number' } });
    expect(made.error).toBeNull();
    expect(made.data).toEqual({ object: 'event', id: expect.any(String) });
    expectReferenceShape('POST', '/events', 201, made.data);
    const id = made.data!.id;
    const byId = await resend.events.get(id);
    expect(byId.data).toMatchObject({
      object: 'event',
      id,
      name: 'user.signed_up',
      schema: { plan: 'string', seats: 'number' },
      updated_at: null,
    });
    expectReferenceShape('GET', '/events/{identifier}', 200, byId.data);
    expect((await resend.events.get('user.signed_up')).data).toMatchObject({ id });
    const listed = await resend.events.list();
    expect(listed.data!.data.map((e) => e.id)).toEqual([id]);
    expectReferenceShape('GET', '/events', 200, listed.data);
    const updated = await resend.events.update('user.signed_up', { schema: null });
    expect(updated.data).toEqual({ object: 'event', id });
    expect((await resend.events.get(id)).data).toMatchObject({ schema: null, updated_at: expect.any(String) });
    // A name is unique per team.
    expect((await resend.events.create({ name: 'user.signed_up' })).error).toMatchObject({
      statusCode: 409,
      name: 'conflict',
    });
    const removed = await resend.events.remove(id);
    expect(removed.data).toEqual({ object: 'event', id, deleted: true });
    expect((await resend.events.get('user.signed_up')).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("refuses bad definitions with 422 naming the field, and answers 404 for another team's event", async () => {
    const { resend, secret } = await newTeam();
    for (const body of [
      { name: 'resend:email.sent' },
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: '0195f0a4-9a7e-7000-8000-000000000000' },
      { name: 'send' },
      { name: 'ok', schema: { when: 'time' } },
      { name: 'ok', extra: 1 },
    ]) {
      const res = await call('POST', '/events', { key: secret, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json).toMatchObject({ name: 'validation_error' });
    }
    expect((await call('PATCH', '/events/anything', { key: secret, body: {} })).status).toBe(422);
    const mine = (await resend.events.create({ name: 'mine' })).data!.id;
    const other = await newTeam();
    expect((await other.resend.events.get(mine)).error).toMatchObject({ statusCode: 404 });
    expect((await other.resend.events.get('mine')).error).toMatchObject({ statusCode: 404 });
    expect((await other.resend.events.remove(mine)).error).toMatchObject({ statusCode: 404 });
  });

  it('accepts a sent event for a contact by id or address (202), checking the payload against the schema', async () => {
    const { resend, secret } = await newTeam();
    const contact = (await resend.contacts.create({ email: 'ada@example.com' })).data!.id;
    await resend.events.create({ name: 'order.paid', schema: { amount: 'number', at: 'date' } });
    const byId = await resend.events.send({ event: 'order.paid', contactId: contact, payload: { amount: 12 } });
    expect(byId.error).toBeNull();
    expect(byId.data).toEqual({ object: 'event', event: 'order.paid' });
    expectReferenceShape('POST', '/events/send', 202, byId.data);
    // An event nobody defined is accepted too: a definition only adds the schema.
    expect((await resend.events.send({ event: 'page.viewed', email: 'ADA@example.com' })).data).toEqual({
      object: 'event',
      event: 'page.viewed',
    });
    const refusals: [object, number, string][] = [
      [{ event: 'order.paid', contact_id: contact, payload: { amount: 'twelve' } }, 422, 'payload.amount'],
      [{ event: 'order.paid', contact_id: contact, payload: { at: 'yesterday' } }, 422, 'payload.at'],
      [{ event: 'order.paid' }, 422, 'contact_id'],
      [{ event: 'order.paid', contact_id: contact, email: 'ada@example.com' }, 422, 'contact_id'],
      [{ event: 'order.paid', email: 'nobody@example.com' }, 404, 'nobody@example.com'],
      [
        { event: 'order.paid', contact_id: contact, payload: { big: 'x'.repeat(MAX_EVENT_PAYLOAD_BYTES) } },
        422,
        'payload',
      ],
    ];
    for (const [body, status, named] of refusals) {
      const res = await call('POST', '/events/send', { key: secret, body });
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(res.json.message).toContain(named);
    }
    // Another team's contact is not one of ours.
    const other = await newTeam();
    expect((await other.resend.events.send({ event: 'order.paid', contactId: contact })).error).toMatchObject({
      statusCode: 404,
    });
  });
});
