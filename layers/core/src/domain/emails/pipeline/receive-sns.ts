// A static import, so esbuild bundles it: Lambda's runtime has no sns-validator beside the bundle.
import MessageValidator from 'sns-validator';
import type { Deps } from '../../../runtime/deps.ts';
import { ApiError } from '../../../errors/api-error.ts';
import { recordProviderEvent, type SesEvent } from './record-provider-event.ts';

/** The SNS HTTP(S) envelope. */
export interface SnsEnvelope {
  readonly Type: string;
  readonly Message: string;
  readonly SubscribeURL?: string;
  readonly [key: string]: unknown;
}

const verify = (message: SnsEnvelope): Promise<void> =>
  new Promise((resolve, reject) => {
    new MessageValidator().validate(message, (error: Error | null) => (error ? reject(error) : resolve()));
  });

/**
 * Handles a notification on the provider-events route: verifies the SNS signature (when
 * configured), confirms subscriptions to amazonaws.com, and applies SES events.
 */
export const receiveSns = async (deps: Deps, message: SnsEnvelope): Promise<{ received: true; applied?: string }> => {
  if (deps.config.SNS_VERIFY_SIGNATURES) {
    await verify(message).catch((error) => { throw new ApiError('invalid_parameter', `SNS signature verification failed: ${(error as Error).message}`); });
  }
  if (message.Type === 'SubscriptionConfirmation') {
    const url = new URL(String(message.SubscribeURL));
    if (url.protocol !== 'https:' || !/^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/.test(url.hostname)) throw new ApiError('invalid_parameter', 'SubscribeURL must be an https URL on sns.<region>.amazonaws.com.');
    await fetch(url);
    return { received: true };
  }
  if (message.Type !== 'Notification') return { received: true };
  let event: SesEvent;
  try {
    event = JSON.parse(message.Message) as SesEvent;
  } catch {
    throw new ApiError('invalid_payload', 'The SNS Message is not an SES event in JSON.');
  }
  return { received: true, applied: await recordProviderEvent(deps, event) };
};
