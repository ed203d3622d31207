import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const LIMIT = 400;

/** Every TypeScript file under `dir`, its path from the repository's root. */
const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

describe('the size of a source file', () => {
  it(`stays within ${LIMIT} lines in layers/ and functions/, unless the README's layout says why`, () => {
    // Prepare: the README's paragraph on long files.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const paragraph = readme.split('\n\n').find((p) => p.startsWith('Files past 400 lines'));
    expect(paragraph, "README: the layout's paragraph on files past 400 lines").toBeDefined();
    const named = paragraph!.replace(/\s+/g, ' ');

    // Act
    const long = [...sources('layers'), ...sources('functions')]
      .map((path) => ({
        path: relative(ROOT, join(ROOT, path)),
        lines: readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1,
      }))
      .filter((f) => f.lines > LIMIT);

    // Assess: each long file is named by its last two path segments (`table/keys.ts`) or its name alone after a sibling.
    const unexplained = long.filter((f) => {
      const [folder, file] = f.path.split('/').slice(-2);
      return !named.includes(`${folder}/${file}`) && !named.includes(`\`${file}\``);
    });
    expect(unexplained, 'files past 400 lines the README does not explain').toEqual([]);
  });
});
