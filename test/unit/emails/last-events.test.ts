import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as v from 'valibot';
import { LAST_EVENTS, QUEUED_STATUSES } from '@mailstack/core/domain/emails/email';
import { lastEvent } from '@mailstack/core/domain/emails/email-view';
import { LastEvent } from '@mailstack/core/schemas/emails';

/** The `last_event` union of the resend SDK's email type (the oracle for wire shapes). */
const sdkLastEvents = (): string[] => {
  const types = readFileSync(resolve(import.meta.dirname, '../../../node_modules/resend/dist/index.d.mts'), 'utf8');
  const union = /last_event: ('[a-z_]+'(?: \| '[a-z_]+')*);/.exec(types)?.[1];
  if (!union) throw new Error('no last_event union in the resend types');
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
};

/** An email's statuses are one list: the wire's `last_event` values, and the stored states it shows as `queued`. */
describe('email statuses', () => {
  it('LAST_EVENTS is the SDK’s last_event set, and the schema accepts exactly it', () => {
    expect([...LAST_EVENTS].sort()).toEqual(sdkLastEvents().sort());
    expect([...LastEvent.options].sort()).toEqual([...LAST_EVENTS].sort());
    expect(v.safeParse(LastEvent, 'queued_quota').success).toBe(false);
  });

  it('every stored state reads as a wire value: the waiting ones as queued, the rest as themselves', () => {
    for (const s of QUEUED_STATUSES) expect(lastEvent(s)).toBe('queued');
    for (const s of LAST_EVENTS) expect(lastEvent(s)).toBe(s);
  });
});
