import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Resend } from 'resend';
import {
  invokeSdkMethod,
  readmeCoverage,
  renderCoverage,
  sdkCoverage,
  type SdkMethod,
} from '../../scripts/sdk-coverage.ts';
import { ERROR_STATUS, type ErrorName } from '@mailstack/core/errors/catalog';
import { call, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

const served = async () => (await call('GET', '/openapi.json')).json;
let rows: SdkMethod[] | undefined;
const coverage = async () => (rows ??= await sdkCoverage(await served()));

describe('official SDK coverage', () => {
  it('the table in docs/sdks.md is the one `npm run sdk-coverage` writes from the served document', async () => {
    expect(readmeCoverage(), 'docs/sdks.md is out of date: run `npm run sdk-coverage`').toBe(
      renderCoverage(await coverage()),
    );
  });

  it('every served SDK method is called through the SDK by a contract test', async () => {
    const dir = resolve(import.meta.dirname);
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(resolve(dir, f), 'utf8'))
      .join('\n');
    const unexercised = (await coverage())
      .filter((r) => r.coverage === 'served')
      .map((r) => r.method)
      .filter((method) => {
        // `resend.audiences` is `resend.segments` itself.
        const names = method.startsWith('segments.') ? [method, method.replace(/^segments\./, 'audiences.')] : [method];
        return !names.some((name) => sources.includes(`.${name}(`));
      });
    expect(unexercised).toEqual([]);
  });

  it('every method refused on purpose answers its documented error, and every method not yet served answers "endpoint does not exist"', async () => {
    const { secret } = await newTeam();
    const doc = await served();
    const client = new Resend(secret) as any;
    const answers: string[] = [];
    const expected: string[] = [];
    for (const row of (await coverage()).filter((r) => r.coverage === 'refused' || r.coverage === 'not yet')) {
      const { request, result } = await invokeSdkMethod(client, row.method);
      expect(request, row.method).toBe(row.request);
      answers.push(`${row.method}: ${result?.error?.statusCode} ${result?.error?.name}`);
      // A refused method answers the error its row names; a method not yet served, 405 on a path
      // served for another method (as both hosts do), else 404.
      const name =
        row.coverage === 'refused'
          ? (row.note.split(':')[0]! as ErrorName)
          : doc.paths[row.request.split(' ')[1]!]
            ? 'method_not_allowed'
            : 'not_found';
      expected.push(`${row.method}: ${ERROR_STATUS[name]} ${name}`);
    }
    expect(answers).toEqual(expected);
    expect(answers.length).toBeGreaterThanOrEqual(7);
  });

  it('serves the SDK methods no other contract test calls', async () => {
    const t = await sendingTeam();
    const { resend } = t;
    const property = await resend.contactProperties.create({
      key: 'plan',
      type: 'string',
      fallbackValue: 'free',
    } as any);
    expect(property.error).toBeNull();
    const id = property.data!.id;
    expect((await resend.contactProperties.get(id)).data).toMatchObject({
      object: 'contact_property',
      id,
      key: 'plan',
      type: 'string',
      fallbackValue: 'free',
    });
    expect((await resend.contactProperties.update({ id, fallbackValue: 'pro' } as any)).data).toMatchObject({
      object: 'contact_property',
      id,
    });
    expect((await resend.contactProperties.list()).data!.data.map((p: any) => [p.id, p.fallbackValue])).toEqual([
      [id, 'pro'],
    ]);
    expect((await resend.contactProperties.remove(id)).data).toMatchObject({
      object: 'contact_property',
      id,
      deleted: true,
    });

    const segment = await resend.segments.create({ name: 'Before' });
    expect((await resend.segments.update(segment.data!.id, { name: 'After' })).data).toMatchObject({
      object: 'segment',
      id: segment.data!.id,
    });
    expect((await resend.segments.get(segment.data!.id)).data).toMatchObject({ name: 'After' });

    const created = await resend.emails.create({ from: t.from, to: 'a@example.com', subject: 'Create', text: 'x' });
    expect(created.error).toBeNull();
    const batch = await resend.batch.create([{ from: t.from, to: 'b@example.com', subject: 'Batch', text: 'x' }]);
    expect(batch.data!.data).toHaveLength(1);

    const usage = await resend.usage.get();
    expect(usage.error).toBeNull();
    expect(usage.data).toMatchObject({ object: 'usage', team: { id: t.team.id } });
  });
});
