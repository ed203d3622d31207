import { describe, expect, it } from 'vitest';
import { sesTransport } from '@mailstack/core/adapters/aws/sesv2-transport';
import { newCounters } from '@mailstack/core/adapters/aws/counters';
import { TransportError } from '@mailstack/core/ports/mail-transport';

/** An error as the SES v2 client throws it: its name, message and HTTP status (none: no answer came back). */
const sdkError = (name: string, message: string, status?: number) =>
  Object.assign(new Error(message), {
    name,
    $metadata: status === undefined ? { attempts: 1 } : { httpStatusCode: status, attempts: 1 },
  });

/** What the transport makes of each SendEmail refusal: its kind, and for a pause its reason (always the account's here). */
const CASES: [string, Error, string, string?][] = [
  // The email's own faults fail the email.
  ['MessageRejected', sdkError('MessageRejected', 'Email address is not verified.', 400), 'permanent'],
  ['BadRequestException', sdkError('BadRequestException', 'Illegal address', 400), 'permanent'],
  [
    'MailFromDomainNotVerifiedException',
    sdkError('MailFromDomainNotVerifiedException', 'not verified', 400),
    'permanent',
  ],
  ['an unnamed 400', sdkError('Unknown', 'bad', 400), 'permanent'],
  // The rate: retried through the line.
  [
    'TooManyRequestsException',
    sdkError('TooManyRequestsException', 'Maximum sending rate exceeded.', 429),
    'throttled',
  ],
  ['ThrottlingException', sdkError('ThrottlingException', 'Maximum sending rate exceeded.', 400), 'throttled'],
  ['LimitExceededException', sdkError('LimitExceededException', 'Too many', 400), 'throttled'],
  ['an unnamed 429', sdkError('Unknown', 'slow down', 429), 'throttled'],
  // The account's states and the operator's faults park the region's line.
  [
    'a spent 24-hour quota',
    sdkError('TooManyRequestsException', 'Daily message quota exceeded.', 429),
    'paused',
    'quota_exhausted',
  ],
  [
    'a spent 24-hour quota (v1 name)',
    sdkError('ThrottlingException', 'Throttling – Daily message quota exceeded', 400),
    'paused',
    'quota_exhausted',
  ],
  ['SendingPausedException', sdkError('SendingPausedException', 'paused', 400), 'paused', 'sending_paused'],
  ['AccountSuspendedException', sdkError('AccountSuspendedException', 'suspended', 400), 'paused', 'account_suspended'],
  [
    'NotFoundException (configuration set)',
    sdkError('NotFoundException', 'Configuration set does not exist', 404),
    'paused',
    'configuration',
  ],
  ['AccessDeniedException', sdkError('AccessDeniedException', 'not authorized', 403), 'paused', 'access_denied'],
  ['UnrecognizedClientException', sdkError('UnrecognizedClientException', 'bad token', 403), 'paused', 'access_denied'],
  ['InvalidClientTokenId', sdkError('InvalidClientTokenId', 'bad key', 403), 'paused', 'access_denied'],
  ['ExpiredTokenException', sdkError('ExpiredTokenException', 'expired', 403), 'paused', 'access_denied'],
  ['SignatureDoesNotMatch', sdkError('SignatureDoesNotMatch', 'clock', 403), 'paused', 'access_denied'],
  ['an unnamed 403', sdkError('Unknown', 'Forbidden', 403), 'paused', 'access_denied'],
  // No answer, or a server error: SES may have accepted it.
  ['InternalFailure (500)', sdkError('InternalFailure', 'oops', 500), 'ambiguous'],
  ['ServiceUnavailable (503)', sdkError('ServiceUnavailable', 'busy', 503), 'ambiguous'],
  ['a connection reset', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'ambiguous'],
  ['a timeout', sdkError('TimeoutError', 'Connection timed out after 30000 ms'), 'ambiguous'],
  [
    'an answer past the request timeout',
    Object.assign(sdkError('TimeoutError', 'a request has exceeded the configured 10000 ms requestTimeout.'), {
      code: 'ETIMEDOUT',
    }),
    'ambiguous',
  ],
  // No connection was made: SES never saw the request, so it is sent again.
  [
    'no connection within the connect timeout',
    sdkError(
      'TimeoutError',
      '@smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of 2000 ms.',
    ),
    'transient',
  ],
  ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'transient'],
  ['an unresolved host', Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), 'transient'],
];

describe('SendEmail refusals, classified', () => {
  it.each(CASES)('%s', async (_what, error, kind, reason) => {
    const client = {
      send: async () => {
        throw error;
      },
    } as any;
    const transport = sesTransport(() => client, 'set', newCounters());
    const failure = await transport
      .send({
        region: 'us-east-1',
        from: 'a@example.com',
        recipients: ['b@example.com'],
        raw: Buffer.from('x'),
        tags: {},
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe(kind);
    expect((failure as TransportError).pause).toEqual(reason ? { scope: 'account', reason } : undefined);
    expect((failure as TransportError).cause).toBe(error);
  });
});
