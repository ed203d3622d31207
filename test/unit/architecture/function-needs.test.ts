import { describe, expect, it } from 'vitest';
import { AREAS, areaNeeds } from '../../../functions/routes.ts';
import { WORKERS } from '../../../functions/workers.ts';
import { importClosure } from '../../support/import-closure.ts';

const SYSTEM_MAIL = 'layers/core/src/domain/people/system-mail.ts';

/** Functions that load the use case only to describe its routes (the OpenAPI document), never to run it. */
const DESCRIBES_ONLY = new Set(['openapi/index']);

describe("each function's grants follow the code it runs", () => {
  it("lets every function that can send the service's own mail register its sender domain (SES identities): without SYSTEM_TEAM_ID the first notice makes it", () => {
    // Prepare
    const functions = [
      ...AREAS.map((area) => ({ entry: `${area}/index`, needs: areaNeeds(area) })),
      ...WORKERS.map((w) => ({ entry: w.entry, needs: w.needs })),
    ].filter((f) => !DESCRIBES_ONLY.has(f.entry));

    // Act
    const sending = functions.filter((f) => importClosure(f.entry).has(SYSTEM_MAIL));
    const ungranted = sending.filter((f) => !f.needs?.sesIdentities).map((f) => f.entry);

    // Assess: the scan finds the functions known to send notices, and each may register the domain.
    expect(sending.map((f) => f.entry)).toEqual(
      expect.arrayContaining(['mcp/index', 'inboxes/index', 'workers/deliver-webhooks.worker']),
    );
    expect(ungranted).toEqual([]);
  });

  it("reads a file's run-time imports and leaves its type-only imports out", async () => {
    const { runtimeImportsOf } = await import('../../support/import-closure.ts');
    expect(
      runtimeImportsOf(
        "import { a } from './a.ts';\nimport type { B } from './b.ts';\nexport { c } from '../c.ts';\nexport type { D } from './d.ts';\nimport './e.ts';\nconst f = await import('./f.ts');\nimport {\n  g,\n  type H,\n} from '@mailstack/core/g';",
      ),
    ).toEqual(['./a.ts', '../c.ts', '@mailstack/core/g', './e.ts', './f.ts']);
  });
});
