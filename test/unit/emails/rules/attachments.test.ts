import { describe, expect, it } from 'vitest';
import { decodeAttachments } from '@mailstack/core/domain/emails/rules/attachments';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('decodeAttachments', () => {
  it('decodes inline base64 content and keeps a given content type', () => {
    const [one] = decodeAttachments([{ filename: 'a.bin', content: b64('hello'), content_type: 'text/x-custom' }], null);
    expect(one).toEqual({ filename: 'a.bin', contentType: 'text/x-custom', content: Buffer.from('hello') });
  });

  it('answers an empty list for none', () => {
    expect(decodeAttachments(undefined, 10)).toEqual([]);
    expect(decodeAttachments(null, 10)).toEqual([]);
  });

  it.each([
    ['invoice.pdf', 'application/pdf'], ['a.PNG', 'image/png'], ['a.jpg', 'image/jpeg'], ['a.jpeg', 'image/jpeg'],
    ['a.gif', 'image/gif'], ['a.txt', 'text/plain'], ['a.csv', 'text/csv'], ['a.html', 'text/html'],
    ['a.json', 'application/json'], ['a.zip', 'application/zip'], ['a.ics', 'text/calendar'],
    ['a.doc', 'application/msword'], ['a.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['a.xls', 'application/vnd.ms-excel'], ['a.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['a.weird', 'application/octet-stream'], ['noext', 'application/octet-stream'],
  ])('defaults the type of %s to %s', (filename, type) => {
    expect(decodeAttachments([{ filename, content: b64('x') }], null)[0]!.contentType).toBe(type);
  });

  it.each([
    ['a path URL', { filename: 'a.pdf', path: 'https://e.com/a.pdf' }, 'never fetched'],
    ['a content_id', { filename: 'a.png', content: b64('x'), content_id: 'logo' }, 'content_id'],
    ['invalid base64', { filename: 'a.txt', content: 'not base64!!' }, 'base64'],
    ['bad padding', { filename: 'a.txt', content: 'YQ=' }, 'base64'],
    ['an unknown key', { filename: 'a.txt', content: b64('x'), disposition: 'inline' }, 'disposition'],
    ['missing content', { filename: 'a.txt' }, 'content'],
    ['missing filename', { content: b64('x') }, 'filename'],
    ['empty filename', { filename: '', content: b64('x') }, 'filename'],
    ['a path separator', { filename: '../etc/passwd', content: b64('x') }, 'path separators'],
    ['a backslash', { filename: 'c:\\a.txt', content: b64('x') }, 'path separators'],
    ['an overlong filename', { filename: `${'a'.repeat(252)}.txt`, content: b64('x') }, '255'],
    ['a non-object', 'a.txt', 'object'],
  ])('refuses %s', (_label, item, fragment) => {
    expect(() => decodeAttachments([item], null)).toThrow(expect.objectContaining({ statusCode: 422, name: 'validation_error', message: expect.stringContaining(fragment) }));
  });

  it('caps the decoded total, naming the limit', () => {
    const items = [{ filename: 'a.txt', content: b64('12345') }, { filename: 'b.txt', content: b64('123456') }];
    expect(decodeAttachments(items, 11)).toHaveLength(2);
    expect(() => decodeAttachments(items, 10)).toThrow(expect.objectContaining({ statusCode: 422, message: expect.stringContaining('10 bytes') }));
  });
});
