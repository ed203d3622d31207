import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { expectReferenceShape } from '../support/openapi.ts';

/**
 * Every audience and email response, held against the reference API's schema for that operation:
 * every declared field present (null where empty), with the declared types.
 */
describe('responses carry every field the reference schemas declare', () => {
  it('for contacts, segments, audiences, topics, properties and suppressions', async () => {
    const { secret } = await newTeam();
    const k = { key: secret };
    const check = async (method: string, path: string, refPath: string, status: number, body?: object) => {
      const out = await call(method, path, { ...k, ...(body !== undefined ? { body } : {}) });
      expect(out.status, `${method} ${path}: ${out.text}`).toBe(status);
      expectReferenceShape(method, refPath, status, out.json);
      return out.json;
    };
    const prop = await check('POST', '/contact-properties', '/contact-properties', 201, {
      key: 'tier',
      type: 'string',
      fallback_value: 'basic',
    });
    await check('GET', '/contact-properties', '/contact-properties', 200);
    await check('GET', `/contact-properties/${prop.id}`, '/contact-properties/{id}', 200);
    await check('PATCH', `/contact-properties/${prop.id}`, '/contact-properties/{id}', 200, { fallback_value: 'gold' });
    const seg = await check('POST', '/segments', '/segments', 201, { name: 'VIP' });
    await check('GET', '/segments', '/segments', 200);
    await check('GET', `/segments/${seg.id}`, '/segments/{id}', 200);
    const aud = await check('POST', '/audiences', '/audiences', 201, { name: 'Legacy' });
    await check('GET', '/audiences', '/audiences', 200);
    await check('GET', `/audiences/${aud.id}`, '/audiences/{id}', 200);
    const topic = await check('POST', '/topics', '/topics', 201, { name: 'News', default_subscription: 'opt_in' });
    await check('GET', '/topics', '/topics', 200);
    await check('GET', `/topics/${topic.id}`, '/topics/{id}', 200);
    await check('PATCH', `/topics/${topic.id}`, '/topics/{id}', 200, { name: 'Newsletter' });
    const contact = await check('POST', '/contacts', '/contacts', 201, { email: 'shape@example.com', first_name: 'S' });
    await check('GET', '/contacts', '/contacts', 200);
    await check('GET', `/contacts/${contact.id}`, '/contacts/{id}', 200);
    await check('PATCH', `/contacts/${contact.id}`, '/contacts/{id}', 200, { last_name: 'Shape' });
    await check('GET', `/contacts/${contact.id}/segments`, '/contacts/{contact_id}/segments', 200);
    await check(
      'POST',
      `/contacts/${contact.id}/segments/${seg.id}`,
      '/contacts/{contact_id}/segments/{segment_id}',
      200,
    );
    await check(
      'DELETE',
      `/contacts/${contact.id}/segments/${seg.id}`,
      '/contacts/{contact_id}/segments/{segment_id}',
      200,
    );
    await check('GET', `/contacts/${contact.id}/topics`, '/contacts/{contact_id}/topics', 200);
    await check('PATCH', `/contacts/${contact.id}/topics`, '/contacts/{contact_id}/topics', 200, [
      { id: topic.id, subscription: 'opt_out' },
    ]);
    const supp = await check('POST', '/suppressions', '/suppressions', 201, { email: 'gone@example.com' });
    await check('GET', '/suppressions', '/suppressions', 200);
    await check('GET', `/suppressions/${supp.id}`, '/suppressions/{suppression}', 200);
    await check('POST', '/suppressions/batch/add', '/suppressions/batch/add', 201, { emails: ['a@example.com'] });
    await check('POST', '/suppressions/batch/remove', '/suppressions/batch/remove', 200, { emails: ['a@example.com'] });
    await check('DELETE', `/suppressions/${supp.id}`, '/suppressions/{suppression}', 200);
    await check('DELETE', `/contacts/${contact.id}`, '/contacts/{id}', 200);
    await check('DELETE', `/topics/${topic.id}`, '/topics/{id}', 200);
    await check('DELETE', `/segments/${seg.id}`, '/segments/{id}', 200);
    await check('DELETE', `/audiences/${aud.id}`, '/audiences/{id}', 200);
    await check('DELETE', `/contact-properties/${prop.id}`, '/contact-properties/{id}', 200);
  });

  it('for emails and domains', async () => {
    const t = await sendingTeam();
    const sent = await call('POST', '/emails', {
      key: t.secret,
      body: { from: t.from, to: 'a@example.com', subject: 'S', text: 'x', scheduled_at: 'in 1 hour' },
    });
    const canceled = await call('POST', `/emails/${sent.json.id}/cancel`, { key: t.secret });
    expectReferenceShape('POST', '/emails/{email_id}/cancel', 200, canceled.json);
    const verify = await call('POST', `/domains/${t.domainId}/verify`, { key: t.secret });
    expectReferenceShape('POST', '/domains/{domain_id}/verify', 200, verify.json);
  });
});
