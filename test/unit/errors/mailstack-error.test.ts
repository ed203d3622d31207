import { describe, expect, it } from 'vitest';
import { MailstackError } from '@mailstack/core/errors/mailstack-error';
import { ApiError } from '@mailstack/core/errors/api-error';
import { OAuthError } from '@mailstack/core/domain/oauth/oauth-error';
import { MailboxAgentError } from '@mailstack/core/domain/mailboxes/agent-error';
import { MailboxAuthError } from '@mailstack/core/domain/mailboxes/mailbox-key';
import { TransportError } from '@mailstack/core/ports/mail-transport';
import { AliasTaken } from '@mailstack/core/table/templates';
import { ProviderEventRefused } from '@mailstack/core/domain/emails/pipeline/receive-provider-events';
import { TargetRefused } from '@mailstack/core/domain/webhooks/targets';
import { BroadcastTooLarge } from '@mailstack/core/domain/broadcasts/plan';

describe('MailstackError, the one base of the service’s errors', () => {
  it.each([
    ['ApiError', () => new ApiError('conflict', 'm')],
    ['OAuthError', () => new OAuthError('invalid_grant', 'm')],
    ['MailboxAgentError', () => new MailboxAgentError('conflict', 'm')],
    ['MailboxAuthError', () => new MailboxAuthError(401, 'm')],
    ['TransportError', () => new TransportError('transient', 'm')],
    ['AliasTaken', () => new AliasTaken('m')],
    ['ProviderEventRefused', () => new ProviderEventRefused('malformed_envelope', 'm')],
    ['TargetRefused', () => new TargetRefused('m')],
    ['BroadcastTooLarge', () => new BroadcastTooLarge(1_000_000, 40, 25_000)],
  ])('is the base of %s', (_name, make) => {
    const error = make();
    expect(error).toBeInstanceOf(MailstackError);
    expect(error).toBeInstanceOf(Error);
  });

  it('passes a cause through, and adds none when there is none', () => {
    const cause = new Error('the condition failed');
    expect(new ApiError('conflict', 'm', { cause }).cause).toBe(cause);
    expect(new OAuthError('invalid_grant', 'm', 400, undefined, { cause }).cause).toBe(cause);
    expect(new MailboxAgentError('conflict', 'm', undefined, { cause }).cause).toBe(cause);
    expect(new TransportError('transient', 'm', { cause }).cause).toBe(cause);
    expect(new MailstackError('m', { cause }).cause).toBe(cause);
    for (const error of [
      new ApiError('conflict', 'm'),
      new OAuthError('invalid_grant', 'm'),
      new TransportError('throttled', 'm'),
    ])
      expect('cause' in error).toBe(false);
  });

  it('leaves every answer as it was: status, name and message', () => {
    const cause = new Error('inner');
    const api = new ApiError('rate_limit_exceeded', 'Too many requests.', { cause, headers: { 'retry-after': '1' } });
    expect(api.toJSON()).toEqual({ statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests.' });
    expect(JSON.parse(JSON.stringify(api))).toEqual(api.toJSON());
    const agent = new MailboxAgentError('rate_limit_exceeded', 'Slow down.', 3, { cause });
    expect([agent.status, agent.name, agent.message, agent.retryAfter]).toEqual([
      429,
      'rate_limit_exceeded',
      'Slow down.',
      3,
    ]);
    expect(agent.toJSON()).toEqual({ statusCode: 429, name: 'rate_limit_exceeded', message: 'Slow down.' });
    const auth = new MailboxAuthError(403, 'Not this mailbox.');
    expect([auth.status, auth.name]).toEqual([403, 'forbidden']);
    const oauth = new OAuthError('too_many_requests', 'Wait.', 429, 30);
    expect([oauth.error, oauth.description, oauth.status, oauth.retryAfter, oauth.message]).toEqual([
      'too_many_requests',
      'Wait.',
      429,
      30,
      'Wait.',
    ]);
    expect(new TransportError('missed', 'late', { lateMs: 20 })).toMatchObject({
      name: 'TransportError',
      kind: 'missed',
      lateMs: 20,
    });
    expect(new TargetRefused('private').name).toBe('TargetRefused');
    expect(new ProviderEventRefused('foreign_topic', 'x')).toMatchObject({
      name: 'ProviderEventRefused',
      reason: 'foreign_topic',
    });
  });
});
