import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { download } from '@mailstack/core/domain/mailboxes/received-email';

const notFound = () =>
  new RawResponse({
    statusCode: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    body: 'Not found (the link is unknown, tampered with or expired: read the email again for a fresh one)',
  });

/**
 * GET /downloads/{token}: a received email's raw MIME or one of its attachments (public: the
 * signed, expiring token is the credential). Always served as a download, never rendered.
 */
export const handler = apiRoute({
  access: 'public',
  response: v.pipe(v.string(), v.description('The file (raw MIME message or attachment bytes).')),
  responseFormat: 'binary',
  params: v.object({ token: v.string() }),
  handler: async ({ deps, params }) => {
    const file = await download(deps, params.token);
    if (!file) return notFound();
    return new RawResponse({
      statusCode: 200,
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      },
      body: file.content.toString('base64'),
      isBase64Encoded: true,
    });
  },
});
