import { describe, expect, it } from 'vitest';
import { parseMailbox, parseMailboxList } from '@mailstack/core/domain/emails/rules/addresses';

describe('parseMailbox', () => {
  describe('accepts one mailbox and reads it back as Name <user@host>', () => {
    it.each([
      ['jane@example.com', 'jane@example.com', null],
      ['  jane@example.com ', 'jane@example.com', null],
      ['Jane Doe <jane@example.com>', 'Jane Doe <jane@example.com>', 'Jane Doe'],
      ['"Doe, Jane" <jane@example.com>', '"Doe, Jane" <jane@example.com>', 'Doe, Jane'],
      ['"Jane" <jane@example.com>', 'Jane <jane@example.com>', 'Jane'],
      ['Acme <no-reply+tag@mail.acme.co.uk>', 'Acme <no-reply+tag@mail.acme.co.uk>', 'Acme'],
      ['Zoë Müller <zoe@example.de>', 'Zoë Müller <zoe@example.de>', 'Zoë Müller'],
    ])('%s', (input, formatted, name) => {
      const box = parseMailbox(input, 'from');
      expect(box.formatted).toBe(formatted);
      expect(box.name).toBe(name);
    });
  });

  describe('refuses with validation_error', () => {
    it.each([
      ['an unquoted comma in a display name', 'Doe, Jane <jane@example.com>', /quoted/],
      ['two addresses', 'a@example.com, b@example.com', /exactly one/],
      ['an at-sign in a quoted display name', '"jane@bank.com" <evil@example.com>', /at-sign/],
      ['an at-sign in an unquoted display name', 'jane@bank.com <evil@example.com>', /at-sign/],
      ['no domain dot', 'jane@localhost', /not a valid address/],
      ['no at-sign', 'jane.example.com', /not a valid address/],
      ['an empty string', '   ', /email address/],
      ['a group', 'Team: a@example.com, b@example.com;', /./],
    ])('%s', (_case, input, message) => {
      expect(() => parseMailbox(input, 'to')).toThrow(expect.objectContaining({ name: 'validation_error', statusCode: 422, message: expect.stringMatching(message) }));
    });
  });
});

describe('parseMailboxList', () => {
  it('takes one string or an array and names the element at fault', () => {
    expect(parseMailboxList('a@example.com', 'to').map((b) => b.address)).toEqual(['a@example.com']);
    expect(parseMailboxList(['a@example.com', 'B <b@example.com>'], 'to').map((b) => b.formatted)).toEqual(['a@example.com', 'B <b@example.com>']);
    expect(() => parseMailboxList(['a@example.com', 'x, y <y@example.com>'], 'cc')).toThrow(/cc\[1\]/);
    expect(parseMailboxList(undefined, 'bcc')).toEqual([]);
  });
});
