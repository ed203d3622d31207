import { describe, expect, it } from 'vitest';
import { derivedNames, readStackConfig } from '../../lib/config.ts';

const withStackName = (name: string) => (key: string) => (key === 'mailstack:stackName' ? name : undefined);

describe('names derived from the stack name', () => {
  it('refuses a stack name whose schedule group, configuration set or rule set name would pass AWS’s 64 characters', () => {
    // Prepare: 55 characters, so `<name>-schedules` is 65.
    const name = `S${'a'.repeat(54)}`;
    // Act, Assess: synthesis fails with what to change, where the deploy would have failed.
    expect(() => readStackConfig(withStackName(name))).toThrow(
      /mailstack:stackName .* is 55 characters: .*-schedules.*AWS caps each at 64 characters\. Choose a stack name of at most 54 characters/,
    );
  });

  it('accepts the longest stack name whose derived names all fit', () => {
    const name = `S${'a'.repeat(53)}`;
    expect(readStackConfig(withStackName(name)).stackName).toBe(name);
    for (const derived of Object.values(derivedNames(name))) expect(derived.length).toBeLessThanOrEqual(64);
  });
});
