import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readStackConfig } from '../../lib/config.ts';

/** The `mailstack:` keys named in the table of CDK context settings in docs/aws.md. */
const documentedKeys = (): string[] => {
  const readme = readFileSync(new URL('../../docs/aws.md', import.meta.url), 'utf8');
  const start = readme.indexOf('Settings come from CDK context');
  expect(start, 'the context table of docs/aws.md').toBeGreaterThan(-1);
  const lines = readme.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'));
  const table = lines.slice(first, end);
  return [
    ...new Set(
      table.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`(mailstack:[A-Za-z]+)`/g)].map((m) => m[1]!)),
    ),
  ];
};

describe("the stack's context settings", () => {
  it('are each documented in the context table of docs/aws.md, and the table names no key the stack does not read', () => {
    // Prepare: every key the stack configuration asks for, each left unset (its default).
    const read = new Set<string>();
    // Act
    readStackConfig((key) => {
      read.add(key);
      return undefined;
    });
    // Assess
    const documented = documentedKeys();
    expect(read.size).toBeGreaterThan(10);
    expect(
      [...read].filter((k) => !documented.includes(k)),
      'read but not documented',
    ).toEqual([]);
    expect(
      documented.filter((k) => !read.has(k)),
      'documented but not read',
    ).toEqual([]);
  });
});
