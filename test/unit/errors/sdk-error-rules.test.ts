import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiError } from '@mailstack/core/errors/api-error';
import { ERROR_STATUS, type ErrorName } from '@mailstack/core/errors/catalog';
import { errorResponse } from '@mailstack/core/http/respond';
import type { ApiResult } from '@mailstack/core/http/types';

/**
 * What each official SDK takes for an error, transcribed from its source, held against every
 * answer of the error catalog as the HTTP stack sends it.
 */

interface Answer {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
}

/** The rule of each SDK: true when it reports the answer to its user as an error. */
const RULES: Record<string, (a: Answer) => boolean> = {
  // resend-node src/resend.ts: `if (!response.ok)` returns `{ data: null, error }`.
  node: (a) => a.status < 200 || a.status > 299,
  // resend-python resend/request.py: the HTTP status when >= 400, else the body's statusCode, raises unless None or 200.
  python: (a) => a.status >= 400 || ![undefined, null, 200].includes(a.body.statusCode as number),
  // resend-go resend.go Perform: any status outside 2xx goes to handleError.
  go: (a) => a.status < 200 || a.status >= 300,
  // resend-ruby lib/resend/request.rb error_response?: the body's statusCode, set and neither 200 nor 201.
  ruby: (a) => Boolean(a.body.statusCode) && a.body.statusCode !== 200 && a.body.statusCode !== 201,
  // resend-php src/Transporters/HttpTransporter.php throwIfJsonError: status >= 400, JSON, and an
  // `error` key or a `name` in its own list (any other answer is returned as a resource).
  php: (a) =>
    a.status >= 400 &&
    a.contentType.includes('application/json') &&
    ('error' in a.body || PHP_NAMES.includes(a.body.name as string)),
};

/** resend-php's isResendError list. */
const PHP_NAMES = [
  'application_error',
  'concurrent_idempotent_requests',
  'daily_quota_exceeded',
  'internal_server_error',
  'invalid_access',
  'invalid_api_key',
  'invalid_attachment',
  'invalid_from_address',
  'invalid_idempotency_key',
  'invalid_idempotent_request',
  'invalid_parameter',
  'invalid_region',
  'method_not_allowed',
  'missing_api_key',
  'missing_required_field',
  'monthly_quota_exceeded',
  'not_found',
  'rate_limit_exceeded',
  'restricted_api_key',
  'security_error',
  'validation_error',
];

const answerOf = (result: ApiResult): Answer => ({
  status: result.statusCode!,
  contentType: String(result.headers?.['content-type'] ?? ''),
  body: JSON.parse(result.body!) as Record<string, unknown>,
});

const SDKS_DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/sdks.md'), 'utf8');

describe('error answers as the official SDKs read them', () => {
  const names = Object.keys(ERROR_STATUS) as ErrorName[];

  it.each(names)('%s is an error to the Node, Python, Go and Ruby SDKs', (name) => {
    const answer = answerOf(errorResponse(new ApiError(name, 'What was wrong.')));
    expect(answer.body).toEqual({ statusCode: ERROR_STATUS[name], name, message: 'What was wrong.' });
    for (const sdk of ['node', 'python', 'go', 'ruby']) expect(RULES[sdk]!(answer), sdk).toBe(true);
  });

  it('is an error to the PHP SDK for every name it knows, and docs/sdks.md lists the others with the workaround', () => {
    const unknown = names.filter((name) => !RULES.php!(answerOf(errorResponse(new ApiError(name, 'x')))));
    expect(unknown.every((name) => !PHP_NAMES.includes(name))).toBe(true);
    // The PHP paragraph of docs/sdks.md names exactly these, and how to tell them from a success.
    const paragraph = SDKS_DOC.split('\n\n').find((p) => p.startsWith('**PHP**'));
    expect(paragraph, 'docs/sdks.md: the **PHP** paragraph of "Using another language"').toBeDefined();
    const listed = [...paragraph!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).filter((n) => n in ERROR_STATUS);
    expect(new Set(listed)).toEqual(new Set(unknown));
    expect(paragraph).toContain("isset($result['statusCode'])");
  });

  it('keeps each SDK rule honest: a success is no error to any of them', () => {
    const ok: Answer = { status: 200, contentType: 'application/json', body: { id: 'x' } };
    for (const [sdk, rule] of Object.entries(RULES)) expect(rule(ok), sdk).toBe(false);
  });
});
