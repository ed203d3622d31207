import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tsFiles } from '../../support/source-files.ts';

const core = join(ROOT, 'layers', 'core', 'src');
const domain = join(core, 'domain');

/** Every module a file imports or re-exports from (static and dynamic). */
const importsOf = (source: string): string[] =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);

describe('the domain speaks rules only (DESIGN.md §2)', () => {
  const sources = tsFiles(domain).map((path) => ({
    file: relative(ROOT, path),
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

/** Whether an import, written from `file`, names a module of layers/core/src/domain (by alias or by path). */
const namesDomain = (file: string, spec: string): boolean =>
  spec.startsWith('@mailstack/core/domain/') ||
  (spec.startsWith('.') && relative(domain, join(file, '..', spec)).split(/[\\/]/)[0] !== '..');

describe('the domain stays behind its ports (DESIGN.md §2)', () => {
  /** Files whose imports of the domain are offenders, with what each imports from it. */
  const domainImports = (paths: readonly string[]): string[] =>
    paths.flatMap((path) =>
      importsOf(readFileSync(path, 'utf8'))
        .filter((spec) => namesDomain(path, spec))
        .map((spec) => `${relative(ROOT, path)} imports ${spec}`),
    );

  it('the CDK stack (lib/, apart from the local host in lib/local/) imports nothing from the domain: shared constants live in neutral core modules', () => {
    const stack = tsFiles(join(ROOT, 'lib'), [join(ROOT, 'lib', 'local')]);
    expect(stack.length).toBeGreaterThan(5);
    expect(domainImports(stack)).toEqual([]);
  });

  it('adapters and ports import nothing from the domain: the types an adapter implements live in ports/', () => {
    const adapters = tsFiles(join(core, 'adapters'));
    expect(adapters.length).toBeGreaterThan(5);
    expect(domainImports([...adapters, ...tsFiles(join(core, 'ports'))])).toEqual([]);
  });

  it('the domain scan sees an import of the domain by alias and by relative path, and nothing else', () => {
    const adapter = join(core, 'adapters', 'node', 'x.ts');
    expect(namesDomain(adapter, '../../domain/webhooks/targets.ts')).toBe(true);
    expect(namesDomain(join(ROOT, 'lib', 'x.ts'), '@mailstack/core/domain/mailboxes/content-keys')).toBe(true);
    expect(namesDomain(adapter, '../../ports/webhook-poster.ts')).toBe(false);
    expect(namesDomain(adapter, '../../content-keys.ts')).toBe(false);
    expect(namesDomain(join(ROOT, 'lib', 'x.ts'), '@mailstack/core/limits')).toBe(false);
  });
});
