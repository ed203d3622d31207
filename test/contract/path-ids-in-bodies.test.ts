import { describe, expect, it } from 'vitest';
import { call } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

/**
 * The body shapes the official SDKs other than Node's send, raw: the path's identifiers repeated
 * in the body. The same value is accepted; a different one is 422 naming both; any other unknown
 * field is still 422.
 */
describe('path identifiers repeated in request bodies', () => {
  it('accepts each SDK body shape when the identifiers equal the path, and refuses a different one naming both', async () => {
    const t = await sendingTeam();
    const k = { key: t.secret };
    const contact = (await call('POST', '/contacts', { ...k, body: { email: 'Ada@Example.com' } })).json;
    const segment = (await call('POST', '/segments', { ...k, body: { name: 'VIP' } })).json;
    const topic = (await call('POST', '/topics', { ...k, body: { name: 'News', default_subscription: 'opt_in' } }))
      .json;
    const email = (
      await call('POST', '/emails', {
        ...k,
        body: { from: t.from, to: 'a@example.com', subject: 'S', text: 'x', scheduled_at: 'in 1 hour' },
      })
    ).json;
    const other = '01a00000-0000-7000-8000-000000000000';
    const later = new Date(Date.now() + 2 * 3600_000).toISOString();

    const shapes: [string, string, Record<string, unknown>, string][] = [
      ['PATCH', `/domains/${t.domainId}`, { id: t.domainId, open_tracking: true }, 'id'],
      ['PATCH', `/emails/${email.id}`, { id: email.id, scheduled_at: later }, 'id'],
      ['PATCH', `/contacts/${contact.id}`, { id: contact.id, first_name: 'Ada' }, 'id'],
      ['PATCH', '/contacts/ada@example.com', { email: 'ADA@example.com', last_name: 'Lovelace' }, 'email'],
      [
        'PATCH',
        `/audiences/${segment.id}/contacts/${contact.id}`,
        { audience_id: segment.id, id: contact.id, unsubscribed: false },
        'audience_id',
      ],
      [
        'POST',
        `/contacts/${contact.id}/segments/${segment.id}`,
        { segment_id: segment.id, contact_id: contact.id },
        'segment_id',
      ],
      ['PATCH', `/topics/${topic.id}`, { id: topic.id, name: 'Newsletter' }, 'id'],
    ];
    for (const [method, path, body, field] of shapes) {
      const ok = await call(method, path, { ...k, body });
      expect(ok.status, `${method} ${path} ${JSON.stringify(body)}: ${ok.text}`).toBe(200);
      const wrong = field === 'email' ? 'someone-else@example.com' : other;
      const refused = await call(method, path, { ...k, body: { ...body, [field]: wrong } });
      expect(refused.status, `${method} ${path} with another ${field}`).toBe(422);
      expect(refused.json.name).toBe('validation_error');
      expect(refused.json.message).toContain(`\`${field}\``);
      expect(refused.json.message).toContain(wrong);
      expect(refused.json.message).toContain(
        decodeURIComponent(
          path.split('/')[field === 'audience_id' ? 2 : field === 'segment_id' ? 4 : path.split('/').length - 1]!,
        ),
      );
    }
    // The segment's own id in the contact's place, and an unknown field, stay refusals.
    const swapped = await call('POST', `/contacts/${contact.id}/segments/${segment.id}`, {
      ...k,
      body: { contact_id: segment.id },
    });
    expect(swapped.status).toBe(422);
    const unknown = await call('PATCH', `/domains/${t.domainId}`, { ...k, body: { id: t.domainId, colour: 'blue' } });
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toContain('`colour` is not a supported field');
    // A field naming a resource the path does not carry is an unknown field.
    const stray = await call('PATCH', `/topics/${topic.id}`, { ...k, body: { contact_id: contact.id, name: 'X' } });
    expect(stray.status).toBe(422);
    expect(stray.json.message).toContain('`contact_id` is not a supported field');
  });

  it('answers "endpoint does not exist" for paths that only look like a resource id, with or without a key', async () => {
    const t = await sendingTeam();
    for (const [method, path] of [
      ['GET', '/contacts/imports'],
      ['POST', '/contacts/imports'],
      // POST /domains/claim is served; GET takes GET /domains/{id}, as on API Gateway.
      ['GET', '/domains/claim'],
      // The PHP SDK's spelling of the claim routes.
      ['POST', '/domains/claims'],
      ['GET', '/domains/claims'],
      ['GET', '/contacts/imports/abc'],
    ]) {
      for (const key of [t.secret, undefined]) {
        const out = await call(method!, path!, { ...(key ? { key } : {}), ...(method === 'POST' ? { body: {} } : {}) });
        expect(out.status, `${method} ${path}`).toBe(404);
        expect(out.json).toEqual({
          statusCode: 404,
          name: 'not_found',
          message: `The requested endpoint does not exist: ${method} ${path}.`,
        });
      }
    }
  });
});
