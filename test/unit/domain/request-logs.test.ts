import { describe, expect, it } from 'vitest';
import { logMessageOf, queueRequestLog } from '@mailstack/core/domain/logs/queue-request-log';
import type { Deps } from '@mailstack/core/runtime/deps';
import { LOG_BODY_MAX_BYTES, LOG_ENQUEUE_TIMEOUT_MS } from '@mailstack/core/limits';

const ids = { next: () => '01a2123b-bf9b-774c-bdf1-09dd1d94ac0b' };
const answered = (requestBody: unknown, responseBody: unknown = { id: 'x' }) =>
  logMessageOf(
    { ids },
    {
      teamId: 't',
      method: 'POST',
      endpoint: '/emails',
      status: 200,
      userAgent: null,
      requestBody,
      responseBody,
      receivedAt: Date.UTC(2026, 0, 1),
    },
  );

describe('the log of an answered request', () => {
  it('keeps a body up to LOG_BODY_MAX_BYTES whole, and past it its size and that much of its JSON', () => {
    const whole = { text: 'é'.repeat((LOG_BODY_MAX_BYTES - 20) / 2) };
    expect(JSON.parse(answered(whole).request_body!)).toEqual(whole);
    const long = { text: 'é'.repeat(LOG_BODY_MAX_BYTES) };
    const cut = JSON.parse(answered(long).request_body!);
    expect(cut).toMatchObject({ truncated: true, bytes: Buffer.byteLength(JSON.stringify(long)) });
    expect(Buffer.byteLength(cut.preview)).toBeLessThanOrEqual(LOG_BODY_MAX_BYTES);
    expect(Buffer.byteLength(cut.preview)).toBeGreaterThan(LOG_BODY_MAX_BYTES - 4);
    expect(cut.preview).not.toContain('\uFFFD');
  });

  it('redacts secret fields, attachment content and credentials by their prefix, in either body and at any depth', () => {
    const log = answered(
      { attachments: [{ filename: 'a.pdf', content: 'JVBERi0x' }], note: 'key ms_abcdefghijkl here', password: 'pw' },
      { signing_secret: 'whsec_x', url: 'http://h/preferences/tok.en?x=1', id: 'kept' },
    );
    expect(JSON.parse(log.request_body!)).toEqual({
      attachments: [{ filename: 'a.pdf', content: '[redacted]' }],
      note: 'key [redacted] here',
      password: '[redacted]',
    });
    expect(JSON.parse(log.response_body!)).toEqual({
      signing_secret: '[redacted]',
      url: 'http://h/preferences/[redacted]?x=1',
      id: 'kept',
    });
    expect(log).toMatchObject({ created_at: '2026-01-01T00:00:00.000Z', team_id: 't', response_status: 200 });
  });

  it('keeps no address in the log of a request that erases contacts', () => {
    const log = answered({ emails: ['Gone <gone@example.com>', 'b@x.org'], erase: true });
    expect(JSON.parse(log.request_body!)).toEqual({ emails: ['Gone <[erased]>', '[erased]'], erase: true });
    expect(answered(undefined).request_body).toBeNull();
  });

  it('never fails or holds the request past LOG_ENQUEUE_TIMEOUT_MS: a queue that refuses or hangs drops the log with a warning', async () => {
    const request = {
      teamId: 't',
      method: 'GET',
      endpoint: '/domains',
      status: 200,
      userAgent: null,
      requestBody: undefined,
      responseBody: undefined,
      receivedAt: 0,
    };
    const warnings: string[] = [];
    const depsWith = (send: () => Promise<void>) =>
      ({
        config: { REQUEST_LOGS_QUEUE_URL: 'q', REQUEST_LOGS_DISABLED: false },
        ids,
        queue: { send },
        logger: { warn: (message: string) => warnings.push(message) },
      }) as unknown as Deps;
    await expect(
      queueRequestLog(
        depsWith(() => Promise.reject(new Error('down'))),
        request,
      ),
    ).resolves.toBeUndefined();
    const started = Date.now();
    await queueRequestLog(
      depsWith(() => new Promise(() => undefined)),
      request,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(LOG_ENQUEUE_TIMEOUT_MS - 5);
    expect(Date.now() - started).toBeLessThan(LOG_ENQUEUE_TIMEOUT_MS + 200);
    expect(warnings).toEqual(['request log not queued; dropped', 'request log not queued in time; dropped']);
  });
});
