/**
 * npm run openapi [-- --out <file>] [-- --server <url>]: writes the OpenAPI 3.1 description,
 * generated from the route manifest and the route declarations (default: openapi.json).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openApiDocument } from '../functions/openapi/document.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'openapi.json' },
    server: { type: 'string', default: 'http://127.0.0.1:3000' },
  },
});
writeFileSync(values.out!, `${JSON.stringify(openApiDocument(values.server!), null, 2)}\n`);
console.log(`wrote ${values.out}`);
