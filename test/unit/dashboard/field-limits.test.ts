import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { fieldLimits, limitAttrs } from '../../../functions/dashboard/view.ts';

const Body = v.strictObject({
  name: v.optional(v.nullable(v.pipe(v.pipe(v.string(), v.minLength(1)), v.maxLength(200)))),
  hours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(72))),
  host: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(253), v.regex(/^[a-z.]+$/)),
  label: v.pipe(v.string(), v.regex(/^[a-z]+$/i)),
  alias: v.pipe(v.string(), v.regex(/^[a-z][a-z_.-]*$/)),
  items: v.pipe(v.array(v.strictObject({ key: v.pipe(v.string(), v.regex(/^[A-Z_]{1,50}$/)) })), v.maxLength(50)),
});

/** fieldLimits reads an API body field's limits as the attributes an input takes. */
describe('fieldLimits', () => {
  it('reads lengths and bounds through optional, nullable and nested pipes, and into array items', () => {
    expect(fieldLimits(Body, 'name')).toEqual({ minlength: 1, maxlength: 200 });
    expect(fieldLimits(Body, 'hours')).toEqual({ min: 0, max: 72 });
    expect(fieldLimits(Body, 'items')).toEqual({ maxlength: 50 });
    expect(fieldLimits(Body, 'items', 'key')).toEqual({ pattern: '[A-Z_]{1,50}' });
  });

  it('leaves out a pattern the typed value need not match, or that a browser would refuse', () => {
    expect(fieldLimits(Body, 'host')).toEqual({ maxlength: 253 });
    expect(fieldLimits(Body, 'label')).toEqual({});
    expect(fieldLimits(Body, 'alias')).toEqual({});
  });

  it('names a field the schema lacks', () => {
    expect(() => fieldLimits(Body, 'nmae')).toThrow(/no field `nmae`/);
  });

  it('renders the limits as escaped attributes', async () => {
    expect(String(await limitAttrs({ maxlength: 5, pattern: '[a-z]{0,5}"' }))).toBe(
      ' maxlength="5" pattern="[a-z]{0,5}&quot;"',
    );
  });
});
