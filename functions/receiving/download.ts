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
 * GET /downloads/{token}: a received email's raw MIME or one of its attachments, or a sent
 * email's attachment (public: the signed, expiring token is the credential). Always served as a
 * download, never rendered. A file past MAX_INLINE_DOWNLOAD_BYTES (a Lambda answers at most
 * 6 MB, base64 adds a third) answers 302 to a link to the object in the content store that works
 * for DOWNLOAD_REDIRECT_SECONDS, signed anew at each download (the token stays the link to keep).
 */
export const handler = apiRoute({
  access: 'public',
  response: v.pipe(v.string(), v.description('The file (raw MIME message or attachment bytes).')),
  responseFormat: 'binary',
  params: v.object({ token: v.string() }),
  handler: async ({ deps, params }) => {
    const file = await download(deps, params.token);
    if (!file) return notFound();
    if ('location' in file)
      return new RawResponse({
        statusCode: 302,
        headers: { location: file.location, 'cache-control': 'private, no-store' },
        body: '',
      });
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
