import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tsFiles } from '../../support/source-files.ts';

const core = join(ROOT, 'layers', 'core', 'src');
const table = join(core, 'table');

/**
 * Where a source calls the table store: `x.tableStore.<operation>(` or takes it out of an object
 * (`{ tableStore } = x`). Tests and scripts wrap it; product code outside the adapter must not call it.
 */
const storeCalls = (source: string): string[] =>
  [...source.matchAll(/\.tableStore\.\w+\(|\{[^{}]*\btableStore\b[^{}:]*\}\s*=/g)].map((m) => m[0]);

describe('Deps holds ports, not raw clients (DESIGN.md §2)', () => {
  it('no module outside the table adapter (layers/core/src/table/) calls the table store', () => {
    const product = [...tsFiles(core, [table]), ...tsFiles(join(ROOT, 'functions')), ...tsFiles(join(ROOT, 'lib'))];
    expect(product.length).toBeGreaterThan(100);
    const offenders = product.flatMap((path) =>
      storeCalls(readFileSync(path, 'utf8')).map((read) => `${relative(ROOT, path)} calls ${read}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the table adapter is where it is called', () => {
    expect(tsFiles(table).filter((path) => storeCalls(readFileSync(path, 'utf8')).length > 0).length).toBeGreaterThan(
      0,
    );
  });

  it('the scan sees a call of the store and nothing else', () => {
    expect(storeCalls('await deps.tableStore.get(x);\nconst { tableStore, table } = deps;')).toEqual([
      '.tableStore.get(',
      '{ tableStore, table } =',
    ]);
    expect(storeCalls('const d = { tableStore: dynamoTableStore(clients.db) };\nconst n = x.tableStoreName;')).toEqual(
      [],
    );
  });

  it('the Deps interface names no AWS SDK client: the table is a port too', () => {
    const source = readFileSync(join(core, 'runtime', 'deps.ts'), 'utf8');
    const body = /export interface Deps \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
    expect(body).toContain('readonly config: Config;');
    const clients = [...body.matchAll(/readonly (\w+): (\w*Client)\b/g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(clients).toEqual([]);
    expect(body).toContain('readonly tableStore: TableStore;');
  });
});
