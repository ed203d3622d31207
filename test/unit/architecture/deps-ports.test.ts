import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tsFiles } from '../../support/source-files.ts';

const core = join(ROOT, 'layers', 'core', 'src');
const table = join(core, 'table');

/**
 * Where a source reads the table's document client: `x.db` (but `clients.db`, the client
 * factory's output that createDeps and the local host start from) or `{ db } = x`.
 */
const dbReads = (source: string): string[] =>
  [...source.matchAll(/(?<!\bclients)\.db\b|\{[^{}]*\bdb\b[^{}:]*\}\s*=/g)].map((m) => m[0]);

describe('Deps holds ports, not raw clients (DESIGN.md §2)', () => {
  it('no module outside the table adapter (layers/core/src/table/) reads the document client from the deps', () => {
    const product = [...tsFiles(core, [table]), ...tsFiles(join(ROOT, 'functions')), ...tsFiles(join(ROOT, 'lib'))];
    expect(product.length).toBeGreaterThan(100);
    const offenders = product.flatMap((path) =>
      dbReads(readFileSync(path, 'utf8')).map((read) => `${relative(ROOT, path)} reads ${read}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the table adapter is where it is read', () => {
    expect(tsFiles(table).filter((path) => dbReads(readFileSync(path, 'utf8')).length > 0).length).toBeGreaterThan(0);
  });

  it('the scan sees a read of the deps’ client and nothing else', () => {
    expect(dbReads('await deps.db.send(x);\nconst { db, table } = deps;')).toEqual(['.db', '{ db, table } =']);
    expect(dbReads('const d = { db: clients.db, table };\nconst dbName = x.dbName;\nclients.db.send(y);')).toEqual([]);
  });

  it('the Deps interface names no AWS SDK client but the table’s document client', () => {
    const source = readFileSync(join(core, 'runtime', 'deps.ts'), 'utf8');
    const body = /export interface Deps \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
    expect(body).toContain('readonly config: Config;');
    const clients = [...body.matchAll(/readonly (\w+): (\w*Client)\b/g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(clients).toEqual(['db: DynamoDBDocumentClient']);
  });
});
