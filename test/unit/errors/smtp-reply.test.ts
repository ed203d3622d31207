import { describe, expect, it } from 'vitest';
import { ApiError, rateLimited } from '@mailstack/core/errors/api-error';
import { ERROR_STATUS, SMTP_REPLY, type ErrorName } from '@mailstack/core/errors/catalog';
import { toSmtpReply } from '@mailstack/core/errors/smtp-reply';

describe('toSmtpReply', () => {
  it.each([
    ['restricted_api_key', 550, '5.7.1'],
    ['validation_error', 550, '5.7.1'],
    ['sending_paused', 554, '5.7.1'],
    ['team_suspended', 554, '5.7.1'],
    ['invalid_api_key', 535, '5.7.8'],
    ['payload_too_large', 552, '5.3.4'],
    ['daily_quota_exceeded', 451, '4.7.1'],
    ['invalid_idempotent_request', 554, '5.6.0'],
  ] as const)('answers %s with %i %s and the error name before the message', (name, code, enhanced) => {
    // Act
    const reply = toSmtpReply(new ApiError(name, 'What went wrong.'));

    // Assess
    expect(reply).toEqual({ code, text: `${enhanced} ${name}: What went wrong.` });
  });

  it('makes every error the API would let a client retry a temporary (4xx) reply, and every other a permanent (5xx) one', () => {
    for (const [name, status] of Object.entries(ERROR_STATUS) as [ErrorName, number][]) {
      const retryable =
        status === 429 || status >= 500 || name === 'concurrent_idempotent_requests' || name === 'conflict';
      const { code, enhanced } = SMTP_REPLY[name];
      expect(Math.floor(code / 100), name).toBe(retryable ? 4 : 5);
      expect(enhanced[0], name).toBe(String(Math.floor(code / 100)));
    }
  });

  it('turns Retry-After into seconds in the text and keeps the reply on one line', () => {
    const reply = toSmtpReply(
      rateLimited('Daily quota spent.\nSends resume at midnight.', 42.2, 'daily_quota_exceeded'),
    );
    expect(reply.text).toBe('4.7.1 daily_quota_exceeded: Daily quota spent. Sends resume at midnight. Retry in 43 s.');
  });
});
