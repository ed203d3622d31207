import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from './source-files.ts';

/**
 * The modules a file loads at run time: `import … from`, `export … from`, `import '…'` and
 * `import('…')`; `import type` and `export type` are left out (compiled away).
 */
export const runtimeImportsOf = (source: string): string[] => [
  ...[...source.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)]
    .filter((m) => !m[1])
    .map((m) => m[2]!),
  ...[...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
  ...[...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
];

/** The file an import names, for the project's own modules (relative paths and the core's alias); undefined for packages. */
const resolveImport = (from: string, spec: string): string | undefined => {
  const base = spec.startsWith('@mailstack/core/')
    ? join(ROOT, 'layers', 'core', 'src', spec.slice('@mailstack/core/'.length))
    : spec.startsWith('.')
      ? join(dirname(from), spec)
      : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, join(base, 'index.ts')].find((c) => c.endsWith('.ts') && existsSync(c));
};

/** The project's modules an entry (a path under functions/, without `.ts`) runs, itself included, relative to the root. */
export const importClosure = (entry: string): Set<string> => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImportsOf(readFileSync(file, 'utf8'))) {
      const next = resolveImport(file, spec);
      if (next) visit(next);
    }
  };
  visit(join(ROOT, 'functions', `${entry}.ts`));
  return new Set([...seen].map((f) => relative(ROOT, f)));
};
