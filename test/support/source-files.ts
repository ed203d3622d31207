import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root. */
export const ROOT = join(import.meta.dirname, '..', '..');

/** Every .ts file under `dir` (absolute paths), leaving out the folders and files in `skip`. */
export const tsFiles = (dir: string, skip: readonly string[] = []): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (skip.includes(path)) return [];
    return statSync(path).isDirectory() ? tsFiles(path, skip) : path.endsWith('.ts') ? [path] : [];
  });
