import { describe, expect, it } from 'vitest';
import { validateCustomHeaders, hasUnsubscribePair } from '@mailstack/core/domain/emails/rules/headers';

const pair = { 'List-Unsubscribe': '<https://example.com/u/1>, <mailto:u@example.com>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };

describe('validateCustomHeaders', () => {
  it.each([
    [{ 'X-Entity-Ref-ID': '123' }],
    [{ 'In-Reply-To': '<a@b>', References: '<a@b> <c@d>', Importance: 'high', Priority: 'urgent', Comments: 'c', Keywords: 'k', Organization: 'Acme' }],
    [pair],
  ])('accepts %j', (headers) => {
    expect(validateCustomHeaders(headers)).toEqual(headers);
  });

  it.each([
    ['a non-allowlisted header', { 'Reply-To': 'x@y.com' }, /Reply-To cannot be set/],
    ['an X-SES- header', { 'X-SES-CONFIGURATION-SET': 'x' }, /reserved prefix/],
    ['our own brand prefix', { 'X-Mailstack-Team': 'x' }, /reserved prefix/],
    ['the legacy brand prefix', { 'X-Resend-Id': 'x' }, /reserved prefix/],
    ['List-Unsubscribe alone', { 'List-Unsubscribe': '<https://example.com/u>' }, /together/],
    ['List-Unsubscribe-Post alone', { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }, /together/],
    ['a mailto-only List-Unsubscribe', { ...pair, 'List-Unsubscribe': '<mailto:u@example.com>' }, /at least one https/],
    ['an http target', { ...pair, 'List-Unsubscribe': '<http://example.com/u>' }, /https or mailto/],
    ['a target without angle brackets', { ...pair, 'List-Unsubscribe': 'https://example.com/u' }, /angle brackets/],
    ['a wrong List-Unsubscribe-Post value', { ...pair, 'List-Unsubscribe-Post': 'yes' }, /One-Click/],
    ['a line break in a value', { 'X-Note': 'a\r\nBcc: victim@example.com' }, /line breaks/],
    ['a non-string value', { 'X-Count': 3 }, /must be a string/],
  ])('refuses %s', (_case, headers, message) => {
    expect(() => validateCustomHeaders(headers as Record<string, unknown>)).toThrow(expect.objectContaining({ name: 'validation_error', message: expect.stringMatching(message) }));
  });

  it('reports whether a List-Unsubscribe pair was supplied', () => {
    expect(hasUnsubscribePair(pair)).toBe(true);
    expect(hasUnsubscribePair({ 'X-A': 'b' })).toBe(false);
    expect(hasUnsubscribePair(null)).toBe(false);
  });
});
