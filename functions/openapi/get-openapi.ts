import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';

const OpenApiDocument = v.object({
  openapi: v.literal('3.1.0'),
  info: v.object({ title: v.string(), version: v.string() }),
  servers: v.array(v.object({ url: v.string() })),
  paths: v.record(v.string(), v.record(v.string(), v.unknown())),
});

let cached: { serverUrl: string; document: unknown } | undefined;

/** GET /openapi.json: the OpenAPI 3.1 description, generated from the route declarations (public). */
export const handler = apiRoute({
  access: 'public',
  response: OpenApiDocument,
  handler: async ({ headers }) => {
    const serverUrl = `${headers['x-forwarded-proto'] ?? 'http'}://${headers.host ?? '127.0.0.1'}`;
    if (cached?.serverUrl !== serverUrl) {
      // Loaded on first use: the description reads every area's declarations.
      const { openApiDocument } = await import('./document.ts');
      cached = { serverUrl, document: openApiDocument(serverUrl) };
    }
    return cached.document;
  },
});
