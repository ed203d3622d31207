import { describe, expect, it } from 'vitest';
import { parseMailbox, parseMailboxList } from '@mailstack/core/domain/emails/rules/addresses';

describe('parseMailbox', () => {
  it.each([
    ['user@example.com', null, 'user@example.com', 'user@example.com'],
    ['  user@example.com  ', null, 'user@example.com', 'user@example.com'],
    ['Jane Doe <jane@example.com>', 'Jane Doe', 'jane@example.com', 'Jane Doe <jane@example.com>'],
    ['"Doe, Jane" <j@x.com>', 'Doe, Jane', 'j@x.com', '"Doe, Jane" <j@x.com>'],
    ['<bare@example.com>', null, 'bare@example.com', 'bare@example.com'],
    // A Unicode domain reads back in its Punycode form, as the provider (SES, no SMTPUTF8) takes it.
    ['Zoë <zoe@exämple.de>', 'Zoë', 'zoe@xn--exmple-cua.de', 'Zoë <zoe@xn--exmple-cua.de>'],
    ['Mixed <User@Example.COM>', 'Mixed', 'User@Example.COM', 'Mixed <User@Example.COM>'],
    ['first.last+tag@sub.example.co.uk', null, 'first.last+tag@sub.example.co.uk', 'first.last+tag@sub.example.co.uk'],
  ])('accepts %s', (input, name, address, formatted) => {
    expect(parseMailbox(input, 'from')).toEqual({ name, address, formatted });
  });

  it.each([
    ['unquoted comma in a display name', 'Doe, Jane <j@x.com>', 'quote'],
    ['two addresses', 'a@x.com, b@x.com', 'exactly one'],
    ['at-sign in a quoted display name', '"support@bank.com" <evil@x.com>', 'at-sign'],
    ['at-sign in an unquoted display name', 'support@bank.com <evil@x.com>', 'from'],
    ['a group', 'team: a@x.com, b@x.com;', 'from'],
    ['empty input', '', 'empty'],
    ['whitespace only', '   ', 'empty'],
    ['no address', 'Jane Doe', 'from'],
    ['no domain dot', 'user@localhost', 'invalid address'],
    ['no local part', '@example.com', 'from'],
    ['space in address', 'us er@example.com', 'from'],
    ['line break', 'a@x.com\r\nBcc: b@x.com', 'line breaks'],
    ['a non-ASCII local part (SES has no SMTPUTF8)', 'José <josé@example.com>', '7-bit ASCII'],
  ])('refuses %s', (_label, input, fragment) => {
    expect(() => parseMailbox(input, 'from')).toThrow(
      expect.objectContaining({
        statusCode: 422,
        name: 'validation_error',
        message: expect.stringContaining(fragment),
      }),
    );
  });
});

describe('parseMailboxList', () => {
  it('reads a string, an array, or nothing', () => {
    expect(parseMailboxList(undefined, 'to')).toEqual([]);
    expect(parseMailboxList(null, 'to')).toEqual([]);
    expect(parseMailboxList('a@x.com', 'to').map((m) => m.address)).toEqual(['a@x.com']);
    expect(parseMailboxList(['A <a@x.com>', '"B, C" <b@x.com>'], 'to').map((m) => m.formatted)).toEqual([
      'A <a@x.com>',
      '"B, C" <b@x.com>',
    ]);
  });

  it('refuses an element holding two addresses, naming its index', () => {
    expect(() => parseMailboxList(['a@x.com', 'b@x.com, c@x.com'], 'cc')).toThrow(
      expect.objectContaining({ statusCode: 422, message: expect.stringContaining('cc[1]') }),
    );
  });
});
