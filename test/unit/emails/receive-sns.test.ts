import { describe, expect, it } from 'vitest';
import { receiveSns } from '@mailstack/core/domain/emails/pipeline/receive-sns';
import { createDeps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';

/** Deps with signature verification on, as on AWS; no table is touched on these paths. */
const awsLike = () => createDeps(readConfig({ TABLE_NAME: 'unused', SNS_VERIFY_SIGNATURES: 'true' }));

describe('receiveSns', () => {
  it.each([
    ['an unsigned notification', { Type: 'Notification', Message: '{}', MessageId: 'm', TopicArn: 'arn:aws:sns:us-east-1:1:t', Timestamp: new Date().toISOString(), SignatureVersion: '1' }],
    ['a signing certificate outside amazonaws.com', { Type: 'Notification', Message: '{}', MessageId: 'm', TopicArn: 'arn:aws:sns:us-east-1:1:t', Timestamp: new Date().toISOString(), SignatureVersion: '1', Signature: 'abc', SigningCertURL: 'https://evil.example.com/cert.pem' }],
    ['a forged subscription confirmation', { Type: 'SubscriptionConfirmation', Message: 'x', MessageId: 'm', Token: 't', TopicArn: 'arn:aws:sns:us-east-1:1:t', SubscribeURL: 'https://evil.example.com/confirm', Timestamp: new Date().toISOString(), SignatureVersion: '1', Signature: 'abc', SigningCertURL: 'https://sns.us-east-1.evil.com/cert.pem' }],
  ])('refuses %s when signatures are verified', async (_case, message) => {
    await expect(receiveSns(awsLike(), message as any)).rejects.toMatchObject({ name: 'invalid_parameter', statusCode: 400, message: expect.stringContaining('signature') });
  });
});
