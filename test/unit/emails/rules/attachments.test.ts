import { describe, expect, it } from 'vitest';
import { decodeAttachments } from '@mailstack/core/domain/emails/rules/attachments';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('decodeAttachments', () => {
  it('decodes inline base64 content and keeps a given content type', () => {
    const [one] = decodeAttachments(
      [{ filename: 'a.bin', content: b64('hello'), content_type: 'text/x-custom' }],
      null,
    );
    expect(one).toEqual({ filename: 'a.bin', contentType: 'text/x-custom', content: Buffer.from('hello') });
  });

  it('decodes content sent as an array of byte values (the Go SDK) or as a Node.js Buffer in JSON, to the same bytes as base64', () => {
    const bytes = [...Buffer.from('héllo\u0000\xff')];
    const asBase64 = decodeAttachments(
      [{ filename: 'a.bin', content: Buffer.from(bytes).toString('base64') }],
      null,
    )[0]!.content;
    expect(decodeAttachments([{ filename: 'a.bin', content: bytes }], null)[0]!.content).toEqual(asBase64);
    expect(
      decodeAttachments([{ filename: 'a.bin', content: { type: 'Buffer', data: bytes } }], null)[0]!.content,
    ).toEqual(asBase64);
    expect(decodeAttachments([{ filename: 'a.bin', content: [] }], null)[0]!.content).toEqual(Buffer.alloc(0));
  });

  it('reads the zero values of optional attachment fields (`""`, null) as absent', () => {
    const [one] = decodeAttachments(
      [{ filename: 'a.pdf', content: b64('x'), path: '', content_id: '', inline_content_id: null, content_type: '' }],
      null,
    );
    expect(one).toEqual({ filename: 'a.pdf', contentType: 'application/pdf', content: Buffer.from('x') });
  });

  it('caps byte-array content by its decoded size, as base64', () => {
    expect(() => decodeAttachments([{ filename: 'a.bin', content: new Array(11).fill(7) }], 10)).toThrow(
      expect.objectContaining({ statusCode: 422, message: expect.stringContaining('10 bytes') }),
    );
    expect(decodeAttachments([{ filename: 'a.bin', content: new Array(10).fill(7) }], 10)).toHaveLength(1);
  });

  it('answers an empty list for none', () => {
    expect(decodeAttachments(undefined, 10)).toEqual([]);
    expect(decodeAttachments(null, 10)).toEqual([]);
  });

  it.each([
    ['invoice.pdf', 'application/pdf'],
    ['a.PNG', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.jpeg', 'image/jpeg'],
    ['a.gif', 'image/gif'],
    ['a.txt', 'text/plain'],
    ['a.csv', 'text/csv'],
    ['a.html', 'text/html'],
    ['a.json', 'application/json'],
    ['a.zip', 'application/zip'],
    ['a.ics', 'text/calendar'],
    ['a.doc', 'application/msword'],
    ['a.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['a.xls', 'application/vnd.ms-excel'],
    ['a.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['a.weird', 'application/octet-stream'],
    ['noext', 'application/octet-stream'],
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
    ['a byte above 255', { filename: 'a.bin', content: [1, 256] }, '`attachments[0].content[1]` is 256'],
    ['a negative byte', { filename: 'a.bin', content: [-1] }, '`attachments[0].content[0]` is -1'],
    ['a fractional byte', { filename: 'a.bin', content: [1.5] }, 'integers from 0 to 255'],
    ['a string in a byte array', { filename: 'a.bin', content: [1, '2'] }, '`attachments[0].content[1]`'],
    [
      'a bad byte in a Buffer',
      { filename: 'a.bin', content: { type: 'Buffer', data: [300] } },
      '`attachments[0].content.data[0]`',
    ],
    ['an object that is no Buffer', { filename: 'a.bin', content: { data: [1] } }, 'array of byte values'],
    ['an inline_content_id', { filename: 'a.png', content: b64('x'), inline_content_id: 'logo' }, 'content_id'],
  ])('refuses %s', (_label, item, fragment) => {
    expect(() => decodeAttachments([item], null)).toThrow(
      expect.objectContaining({
        statusCode: 422,
        name: 'validation_error',
        message: expect.stringContaining(fragment),
      }),
    );
  });

  it('caps the decoded total, naming the limit', () => {
    const items = [
      { filename: 'a.txt', content: b64('12345') },
      { filename: 'b.txt', content: b64('123456') },
    ];
    expect(decodeAttachments(items, 11)).toHaveLength(2);
    expect(() => decodeAttachments(items, 10)).toThrow(
      expect.objectContaining({ statusCode: 422, message: expect.stringContaining('10 bytes') }),
    );
  });
});
