import { describe, expect, it } from 'vitest';
import { decodeAttachments } from '@mailstack/core/domain/emails/rules/attachments';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('decodeAttachments', () => {
  it('decodes inline base64 content and infers the content type from the file name', () => {
    const [a] = decodeAttachments([{ filename: 'invoice.pdf', content: b64('%PDF-1.4') }], 1_000_000);
    expect(a).toMatchObject({ filename: 'invoice.pdf', contentType: 'application/pdf' });
    expect(a!.content.toString()).toBe('%PDF-1.4');
  });

  it.each([
    ['a path URL, which is never fetched', { filename: 'a.pdf', path: 'https://example.com/a.pdf' }, /path.*never fetched/],
    ['a content_id', { filename: 'a.png', content: b64('x'), content_id: 'logo' }, /content_id/],
    ['missing content', { filename: 'a.txt' }, /content.*required/],
    ['invalid base64', { filename: 'a.txt', content: '***' }, /not valid base64/],
    ['a missing file name', { content: b64('x') }, /filename/],
    ['a path in the file name', { filename: '../etc/passwd', content: b64('x') }, /filename/],
    ['an unknown field', { filename: 'a.txt', content: b64('x'), disposition: 'inline' }, /disposition/],
  ])('refuses %s', (_case, attachment, message) => {
    expect(() => decodeAttachments([attachment], null)).toThrow(expect.objectContaining({ name: 'validation_error', message: expect.stringMatching(message) }));
  });

  it('caps the summed decoded size at the plan limit', () => {
    const half = Buffer.alloc(600_000).toString('base64');
    expect(() => decodeAttachments([{ filename: 'a.bin', content: half }, { filename: 'b.bin', content: half }], 1_000_000)).toThrow(/1200000 bytes.*1000000/);
    expect(decodeAttachments([{ filename: 'a.bin', content: half }, { filename: 'b.bin', content: half }], 5_000_000)).toHaveLength(2);
  });
});
