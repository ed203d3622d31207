import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';

const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;
const ENDPOINT = 'http://127.0.0.1:9/hook';

describe('webhook endpoints API (resend.webhooks.*)', () => {
  it('subscribes to every event the service records, contact.erased included, and names the allowed ones when refusing', async () => {
    const { resend } = await newTeam();
    const erased = await resend.webhooks.create({
      endpoint: ENDPOINT,
      events: ['contact.erased' as 'contact.deleted'],
    });
    expect(erased.error).toBeNull();
    const refused = await resend.webhooks.create({
      endpoint: ENDPOINT,
      events: ['contact.vanished' as 'contact.deleted'],
    });
    expect(refused.error).toMatchObject({
      name: 'validation_error',
      message: expect.stringContaining('contact.erased'),
    });
  });

  it('creates, reads, lists without secrets, updates and deletes an endpoint through the SDK', async () => {
    const { resend } = await newTeam();
    const created = await resend.webhooks.create({ endpoint: ENDPOINT, events: ['email.sent', 'email.delivered'] });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({
      object: 'webhook',
      id: expect.any(String),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(Buffer.from(created.data!.signing_secret.slice(6), 'base64').length).toBe(32);
    const id = created.data!.id;

    const got = await resend.webhooks.get(id);
    expect(got.data).toEqual({
      object: 'webhook',
      id,
      endpoint: ENDPOINT,
      events: ['email.sent', 'email.delivered'],
      status: 'enabled',
      created_at: expect.any(String),
      signing_secret: created.data!.signing_secret,
      previous_secret_expires_at: null,
    });

    const second = await resend.webhooks.create({ endpoint: `${ENDPOINT}2`, events: ['contact.created'] });
    const list = await resend.webhooks.list();
    expect(list.data).toMatchObject({ object: 'list', has_more: false });
    expect(list.data!.data.map((w) => w.id)).toEqual([second.data!.id, id]);
    for (const row of list.data!.data)
      expect(Object.keys(row).sort()).toEqual(['created_at', 'endpoint', 'events', 'id', 'status']);
    const page = await resend.webhooks.list({ limit: 1 });
    expect(page.data).toMatchObject({ has_more: true, data: [{ id: second.data!.id }] });
    expect((await resend.webhooks.list({ limit: 1, after: second.data!.id })).data).toMatchObject({
      has_more: false,
      data: [{ id }],
    });

    expect((await resend.webhooks.update(id, { events: ['email.bounced'], status: 'disabled' })).data).toEqual({
      object: 'webhook',
      id,
    });
    expect((await resend.webhooks.get(id)).data).toMatchObject({ events: ['email.bounced'], status: 'disabled' });
    expect(
      (await resend.webhooks.update(id, { status: 'enabled', endpoint: 'http://127.0.0.1:9/other' })).error,
    ).toBeNull();
    expect((await resend.webhooks.get(id)).data).toMatchObject({
      status: 'enabled',
      endpoint: 'http://127.0.0.1:9/other',
    });

    expect((await resend.webhooks.remove(id)).data).toEqual({ object: 'webhook', id, deleted: true });
    expect((await resend.webhooks.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('accepts a given signing secret of 24 to 64 bytes and refuses every other shape with 422', async () => {
    const { secret: key } = await newTeam();
    for (const good of [secretOf(24), secretOf(32), secretOf(64)]) {
      const res = await call('POST', '/webhooks', {
        key,
        body: { endpoint: ENDPOINT, events: ['email.sent'], signing_secret: good },
      });
      expect(res.status, good).toBe(201);
      expect(res.json.signing_secret).toBe(good);
    }
    const bad = [
      secretOf(23), // too short
      secretOf(65), // too long
      randomBytes(32).toString('base64'), // no prefix
      `whsec-${randomBytes(32).toString('base64')}`, // wrong prefix
      `whsec_${'ab-_'.repeat(11)}`, // base64url alphabet (- and _)
      `whsec_${randomBytes(32).toString('base64').replace(/=+$/, '')}`, // padding dropped
      `whsec_${randomBytes(30).toString('base64').slice(0, -1)}!`, // a character outside base64
      `whsec_${randomBytes(32).toString('base64').replace(/=$/, 'B=')}`, // not a multiple of 4 after padding
      'whsec_', // empty
      `whsec_ ${randomBytes(32).toString('base64')}`, // space
    ];
    for (const s of bad) {
      const res = await call('POST', '/webhooks', {
        key,
        body: { endpoint: ENDPOINT, events: ['email.sent'], signing_secret: s },
      });
      expect(res.status, s).toBe(422);
      expect(res.json).toMatchObject({
        statusCode: 422,
        name: 'validation_error',
        message: expect.stringContaining('signing_secret'),
      });
    }
  });

  it('refuses unknown event names, an empty list, non-URL endpoints and unknown fields with 422', async () => {
    const { secret: key } = await newTeam();
    const cases: [object, string][] = [
      [{ endpoint: ENDPOINT, events: ['email.nope'] }, 'email.nope'],
      [{ endpoint: ENDPOINT, events: [] }, 'events'],
      [{ endpoint: 'not a url', events: ['email.sent'] }, 'endpoint'],
      [{ endpoint: 'ftp://127.0.0.1/x', events: ['email.sent'] }, 'endpoint'],
      [{ endpoint: ENDPOINT }, 'events'],
      [{ endpoint: ENDPOINT, events: ['email.sent'], colour: 'blue' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/webhooks', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.name).toBe('validation_error');
      expect(res.json.message).toContain(field);
    }
  });

  it("answers 404 for another team's endpoint on every route", async () => {
    const a = await newTeam();
    const b = await newTeam();
    const { data } = await a.resend.webhooks.create({ endpoint: ENDPOINT, events: ['email.sent'] });
    const id = data!.id;
    expect((await b.resend.webhooks.get(id)).error).toMatchObject({ statusCode: 404 });
    expect((await b.resend.webhooks.update(id, { status: 'disabled' })).error).toMatchObject({ statusCode: 404 });
    expect((await b.resend.webhooks.remove(id)).error).toMatchObject({ statusCode: 404 });
    expect((await b.resend.webhooks.rotateSigningSecret(id)).error).toMatchObject({ statusCode: 404 });
    expect((await b.resend.webhooks.events.list({ webhookId: id })).error).toMatchObject({ statusCode: 404 });
    expect((await b.resend.webhooks.list()).data!.data).toEqual([]);
    expect((await a.resend.webhooks.get(id)).data!.status).toBe('enabled');
  });

  it('rotates: the SDK route with no body, the spec route with a secret and overlap, 0 hours dropping the old secret', async () => {
    const { resend, secret: key } = await newTeam();
    const { data } = await resend.webhooks.create({ endpoint: ENDPOINT, events: ['email.sent'] });
    const id = data!.id;
    const first = data!.signing_secret;

    const rotated = await resend.webhooks.rotateSigningSecret(id);
    expect(rotated.data).toMatchObject({
      object: 'webhook',
      id,
      signing_secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: expect.any(String),
    });
    expect(rotated.data!.signing_secret).not.toBe(first);
    const expires = Date.parse((rotated.data as any).previous_secret_expires_at);
    expect(Math.abs(expires - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);

    const chosen = secretOf(40);
    const spec = await call('POST', `/webhooks/${id}/rotate`, {
      key,
      body: { signing_secret: chosen, overlap_hours: 72 },
    });
    expect(spec.status).toBe(200);
    expect(spec.json).toEqual({
      object: 'webhook',
      id,
      signing_secret: chosen,
      previous_secret_expires_at: expect.any(String),
    });
    expect(Math.abs(Date.parse(spec.json.previous_secret_expires_at) - Date.now() - 72 * 3_600_000)).toBeLessThan(
      60_000,
    );

    const drop = await call('POST', `/webhooks/${id}/rotate`, { key, body: { overlap_hours: 0 } });
    expect(drop.json.previous_secret_expires_at).toBeNull();
    expect((await resend.webhooks.get(id)).data).toMatchObject({
      signing_secret: drop.json.signing_secret,
      previous_secret_expires_at: null,
    });

    for (const body of [
      { overlap_hours: 73 },
      { overlap_hours: -1 },
      { overlap_hours: 1.5 },
      { signing_secret: 'whsec_short' },
    ]) {
      const res = await call('POST', `/webhooks/${id}/rotate`, { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.name).toBe('validation_error');
    }
  });
});
