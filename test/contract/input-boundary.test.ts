import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

const longId = 'a'.repeat(3000);

describe('path ids that cannot be ids answer 404 before the table', () => {
  it('GET /domains/<3000 × a> is 404 not_found', async () => {
    const t = await newTeam();
    const res = await call('GET', `/domains/${longId}`, { key: t.secret });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ name: 'not_found' });
  });

  it('a long id is 404 on every kind of path parameter (contact by address, nested, segment)', async () => {
    const t = await newTeam();
    for (const [method, path] of [
      ['GET', `/contacts/${longId}@example.com`],
      ['DELETE', `/contacts/${longId}`],
      ['GET', `/contacts/${longId}/segments`],
      ['POST', `/contacts/${longId}/segments/${longId}`],
      ['GET', `/emails/${longId}`],
      ['DELETE', `/topics/${longId}`],
      ['GET', `/preferences/${'b'.repeat(5000)}`],
    ] as const) {
      const res = await call(method, path, { key: t.secret });
      expect(res.status, `${method} ${path.slice(0, 40)}`).toBe(404);
      expect(res.json?.name, `${method} ${path.slice(0, 40)}`).toBe('not_found');
    }
  });

  it('a path id that is not the id the route takes (an audience id that is no UUID) is 404, not 422', async () => {
    const t = await newTeam();
    const res = await call('GET', '/audiences/not-a-uuid/contacts', { key: t.secret });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ name: 'not_found' });
  });
});

describe('bodies must be the JSON type the route takes', () => {
  it('DELETE /topics/{id} with body [] is refused (422) and the topic is kept', async () => {
    const t = await newTeam();
    const topic = await t.resend.topics.create({ name: 'News', defaultSubscription: 'opt_in' });
    const id = topic.data!.id;
    for (const body of ['[]', '"s"', '5', 'null', '[{}]']) {
      const res = await call('DELETE', `/topics/${id}`, { key: t.secret, body });
      expect(res.status, body).toBe(422);
      expect(res.json, body).toMatchObject({ name: 'validation_error' });
    }
    expect((await t.resend.topics.get(id)).data?.id).toBe(id);
    // An empty object, or no body, is still a plain delete.
    expect((await call('DELETE', `/topics/${id}`, { key: t.secret, body: '{}' })).status).toBe(200);
  });

  it('a JSON array where a route takes an object is 422 validation_error', async () => {
    const t = await newTeam();
    for (const [method, path] of [
      ['POST', '/domains'],
      ['POST', '/contacts'],
      ['POST', '/topics'],
      ['POST', '/segments'],
      ['POST', '/emails'],
      ['POST', '/contacts/batch/get'],
    ] as const) {
      const res = await call(method, path, { key: t.secret, body: [] });
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.json, `${method} ${path}`).toMatchObject({ name: 'validation_error' });
      expect(res.json.message, `${method} ${path}`).toMatch(/JSON object; got an array/);
    }
  });

  it('an object where a route takes an array (POST /emails/batch) is 422; unparsable JSON stays 400 invalid_payload', async () => {
    const t = await newTeam();
    expect((await call('POST', '/emails/batch', { key: t.secret, body: {} })).json).toMatchObject({
      name: 'validation_error',
    });
    const bad = await call('POST', '/emails/batch', { key: t.secret, body: '[{' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ name: 'invalid_payload' });
  });
});

describe('list parameters are validated on every list route (spec §4)', () => {
  it('GET /contacts/{id}/segments refuses limit=0, limit=abc and after=bogus with 422', async () => {
    const t = await newTeam();
    const contact = await t.resend.contacts.create({ email: 'list-params@example.com' });
    const id = contact.data!.id;
    for (const q of ['limit=0', 'limit=abc', 'after=bogus', 'before=bogus', 'limit=101', `after=${id}&before=${id}`]) {
      const res = await call('GET', `/contacts/${id}/segments?${q}`, { key: t.secret });
      expect(res.status, q).toBe(422);
      expect(res.json, q).toMatchObject({ name: 'validation_error' });
    }
    expect((await call('GET', `/contacts/${id}/segments?limit=5`, { key: t.secret })).status).toBe(200);
  });

  it("pages a contact's segments with limit and after", async () => {
    const t = await newTeam();
    const contact = await t.resend.contacts.create({ email: 'paged@example.com' });
    const id = contact.data!.id;
    for (const name of ['s1', 's2', 's3']) {
      const s = await t.resend.segments.create({ name });
      await call('POST', `/contacts/${id}/segments/${s.data!.id}`, { key: t.secret });
    }
    const first = await call('GET', `/contacts/${id}/segments?limit=2`, { key: t.secret });
    expect(first.json.data.map((s: any) => s.name)).toEqual(['s3', 's2']);
    expect(first.json.has_more).toBe(true);
    const next = await call('GET', `/contacts/${id}/segments?limit=2&after=${first.json.data[1].id}`, {
      key: t.secret,
    });
    expect(next.json.data.map((s: any) => s.name)).toEqual(['s1']);
    expect(next.json.has_more).toBe(false);
  });
});

describe('timestamps are real calendar instants', () => {
  it('scheduled_at 2025-02-30T10:00:00Z is 422 and nothing is sent', async () => {
    const t = await sendingTeam();
    const res = await call('POST', '/emails', {
      key: t.secret,
      body: { from: t.from, to: 'x@example.com', subject: 'Feb 30', text: 'x', scheduled_at: '2025-02-30T10:00:00Z' },
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ name: 'validation_error' });
    expect(res.json.message).toMatch(/scheduled_at/);
    expect((await t.resend.emails.list()).data!.data).toEqual([]);
  });
});

describe('numbers and strings have bounds checked before storage', () => {
  it('a contact property value of 500 KB is 422', async () => {
    const t = await newTeam();
    await t.resend.contactProperties.create({ key: 'bio', type: 'string' });
    const res = await call('POST', '/contacts', {
      key: t.secret,
      body: { email: 'big@example.com', properties: { bio: 'x'.repeat(500_000) } },
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ name: 'validation_error' });
    expect(res.json.message).toMatch(/properties\.bio.*1000 characters/);
  });

  it('a number property of -1e-300 is 422', async () => {
    const t = await newTeam();
    await t.resend.contactProperties.create({ key: 'score', type: 'number' });
    const res = await call('POST', '/contacts', {
      key: t.secret,
      body: { email: 'tiny@example.com', properties: { score: -1e-300 } },
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ name: 'validation_error' });
    const ok = await call('POST', '/contacts', {
      key: t.secret,
      body: { email: 'fine@example.com', properties: { score: -0.5 } },
    });
    expect(ok.status).toBe(201);
  });

  it('a fallback_value of 1e300 is 422 on create and on update', async () => {
    const t = await newTeam();
    const res = await call('POST', '/contact-properties', {
      key: t.secret,
      body: { key: 'huge', type: 'number', fallback_value: 1e300 },
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ name: 'validation_error' });
    const made = await call('POST', '/contact-properties', {
      key: t.secret,
      body: { key: 'fine', type: 'number', fallback_value: 1 },
    });
    const upd = await call('PATCH', `/contact-properties/${made.json.id}`, {
      key: t.secret,
      body: { fallback_value: 1e300 },
    });
    expect(upd.status).toBe(422);
  });
});
