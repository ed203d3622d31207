import { describe, expect, it } from 'vitest';
import { hasUnsubscribePair, validateCustomHeaders } from '@mailstack/core/domain/emails/rules/headers';

const PAIR = { 'List-Unsubscribe': '<https://example.com/u/1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };

describe('validateCustomHeaders', () => {
  it.each([
    [{ 'X-Entity-Ref-ID': '123' }],
    [{ 'x-campaign': 'spring' }],
    [
      {
        'In-Reply-To': '<a@b>',
        References: '<a@b> <c@d>',
        Importance: 'high',
        Priority: 'urgent',
        Comments: 'c',
        Keywords: 'k',
        Organization: 'Acme',
      },
    ],
    [PAIR],
    [
      {
        'list-unsubscribe': '<mailto:u@example.com>, <https://example.com/u>',
        'LIST-UNSUBSCRIBE-POST': 'List-Unsubscribe=One-Click',
      },
    ],
  ])('accepts %j as given', (headers) => {
    expect(validateCustomHeaders(headers)).toEqual(headers);
  });

  it('answers null for none', () => {
    expect(validateCustomHeaders(undefined)).toBeNull();
    expect(validateCustomHeaders(null)).toBeNull();
    expect(validateCustomHeaders({})).toBeNull();
  });

  it.each([
    ['a reserved X-SES- header', { 'X-SES-CONFIGURATION-SET': 'x' }, 'X-SES-CONFIGURATION-SET'],
    ['our brand prefix', { 'x-mailstack-id': 'x' }, 'x-mailstack-id'],
    ['the legacy brand prefix', { 'X-Resend-Id': 'x' }, 'X-Resend-Id'],
    ['a non-allowlisted header', { 'Reply-To': 'a@b.com' }, 'Allowed'],
    ['From override', { From: 'a@b.com' }, 'From'],
    ['header injection with CRLF', { 'X-Tag': 'a\r\nBcc: victim@x.com' }, 'line breaks'],
    ['a bare LF', { 'X-Tag': 'a\nb' }, 'line breaks'],
    ['a name with a space', { 'X Tag': 'a' }, 'invalid header name'],
    ['a name with a colon', { 'X-Tag:': 'a' }, 'invalid header name'],
    ['List-Unsubscribe alone', { 'List-Unsubscribe': '<https://e.com/u>' }, 'together'],
    ['List-Unsubscribe-Post alone', { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }, 'together'],
    ['mailto only', { ...PAIR, 'List-Unsubscribe': '<mailto:u@e.com>' }, 'https'],
    ['http target', { ...PAIR, 'List-Unsubscribe': '<http://e.com/u>' }, 'https'],
    ['no angle brackets', { ...PAIR, 'List-Unsubscribe': 'https://e.com/u' }, 'angle brackets'],
    ['wrong Post value', { ...PAIR, 'List-Unsubscribe-Post': 'One-Click' }, 'List-Unsubscribe=One-Click'],
    ['a non-string value', { 'X-Num': 5 as unknown as string }, 'string'],
  ])('refuses %s', (_label, headers, fragment) => {
    expect(() => validateCustomHeaders(headers)).toThrow(
      expect.objectContaining({
        statusCode: 422,
        name: 'validation_error',
        message: expect.stringContaining(fragment),
      }),
    );
  });
});

describe('hasUnsubscribePair', () => {
  it.each([
    [PAIR, true],
    [{ 'list-unsubscribe': 'x', 'list-unsubscribe-post': 'y' }, true],
    [{ 'List-Unsubscribe': 'x' }, false],
    [{ 'X-A': 'b' }, false],
    [null, false],
  ])('%j -> %s', (headers, expected) => {
    expect(hasUnsubscribePair(headers)).toBe(expected);
  });
});
