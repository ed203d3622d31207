import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const domain = join(root, 'layers', 'core', 'src', 'domain');

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

/** Every module a file imports or re-exports from (static and dynamic). */
const importsOf = (source: string): string[] =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);

describe('the domain speaks rules only (DESIGN.md §2)', () => {
  const sources = files(domain).map((path) => ({
    file: relative(root, path),
    imports: importsOf(readFileSync(path, 'utf8')),
  }));

  it('finds the domain modules it guards', () => {
    expect(sources.length).toBeGreaterThan(30);
    expect(sources.some((s) => s.imports.length > 0)).toBe(true);
  });

  it('imports no AWS SDK module: storage goes through layers/core/src/table, providers through ports', () => {
    const offenders = sources.flatMap((s) =>
      s.imports.filter((i) => i.startsWith('@aws-sdk/')).map((i) => `${s.file} imports ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('imports nothing from the HTTP layer: hosts build a Caller and call the use cases', () => {
    const offenders = sources.flatMap((s) =>
      s.imports.filter((i) => /(^|\/)http\//.test(i)).map((i) => `${s.file} imports ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the import scan sees the imports it must refuse', () => {
    expect(
      importsOf(
        "import { X } from '@aws-sdk/lib-dynamodb';\nimport type { Y } from '../../http/auth.ts';\nconst z = await import('../http/z.ts');",
      ),
    ).toEqual(['@aws-sdk/lib-dynamodb', '../../http/auth.ts', '../http/z.ts']);
  });
});
