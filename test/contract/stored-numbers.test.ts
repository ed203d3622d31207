import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';

/** Past 2^53 - 1: a JSON number already rounded when read, and one DynamoDB's document client refuses to write. */
const BIG = 2 ** 53 + 2;

/** The SDK's refusal: 422 validation_error naming the field. */
const refusedNaming = (
  error: { name?: string; statusCode?: number | null; message?: string } | null,
  field: string,
) => {
  expect(error, `a refusal naming ${field}`).toMatchObject({ name: 'validation_error', statusCode: 422 });
  expect(error!.message).toContain(`\`${field}\``);
  expect(error!.message).toContain('9007199254740991');
};

describe('numbers the table cannot keep as sent are refused with 422 naming the field, never a 500', () => {
  it('a contact property: on create, update and batch create, and as a property fallback; 2^53 - 1 is kept exactly', async () => {
    const { resend, secret } = await newTeam();
    expect((await resend.contactProperties.create({ key: 'score', type: 'number' })).error).toBeNull();

    refusedNaming(
      (await resend.contacts.create({ email: 'big@example.com', properties: { score: BIG } })).error,
      'properties.score',
    );
    refusedNaming(
      (await resend.contacts.create({ email: 'big@example.com', properties: { score: -BIG } })).error,
      'properties.score',
    );
    const kept = await resend.contacts.create({
      email: 'safe@example.com',
      properties: { score: Number.MAX_SAFE_INTEGER },
    });
    expect(kept.error).toBeNull();
    expect((await resend.contacts.get(kept.data!.id)).data!.properties).toEqual({
      score: { type: 'number', value: Number.MAX_SAFE_INTEGER },
    });
    refusedNaming(
      (await resend.contacts.update({ id: kept.data!.id, properties: { score: BIG } } as any)).error,
      'properties.score',
    );
    expect((await resend.contacts.get(kept.data!.id)).data!.properties).toEqual({
      score: { type: 'number', value: Number.MAX_SAFE_INTEGER },
    });
    const batch = await call('POST', '/contacts/batch', {
      key: secret,
      body: [{ email: 'a@example.com' }, { email: 'b@example.com', properties: { score: BIG } }],
    });
    refusedNaming(batch.json, '1.properties.score');
    refusedNaming(
      (await resend.contactProperties.create({ key: 'big', type: 'number', fallbackValue: BIG })).error,
      'fallback_value',
    );
    // JSON's 1e400 reads as Infinity (the SDK cannot send it: JSON.stringify writes null).
    const infinite = await call('POST', '/contacts', {
      key: secret,
      body: '{"email":"inf@example.com","properties":{"score":1e400}}',
    });
    expect(infinite.status, infinite.text).toBe(422);
    expect(infinite.json.message).toContain('`properties.score`: Infinity');
  });

  it("an event's payload, a template variable's fallback and a send's template.variables", async () => {
    const { resend } = await newTeam();
    const contact = await resend.contacts.create({ email: 'ev@example.com' });
    expect(contact.error).toBeNull();
    refusedNaming(
      (
        await resend.events.send({
          event: 'user.scored',
          contactId: contact.data!.id,
          payload: { points: { total: BIG } },
        })
      ).error,
      'payload.points.total',
    );
    refusedNaming(
      (
        await resend.templates.create({
          name: 'Score',
          html: '<p>{{{SCORE}}}</p>',
          variables: [{ key: 'SCORE', type: 'number', fallbackValue: BIG }],
        })
      ).error,
      'variables.0.fallback_value',
    );
    refusedNaming(
      (
        await resend.emails.send({
          from: 'Acme <hello@example.com>',
          to: 'delivered@resend.dev',
          template: { id: 'score', variables: { SCORE: BIG } },
        })
      ).error,
      'template.variables.SCORE',
    );
  });
});
