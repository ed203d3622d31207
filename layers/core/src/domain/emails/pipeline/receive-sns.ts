import { createRequire } from 'node:module';
import type { Deps } from '../../../runtime/deps.ts';
import { ApiError } from '../../../errors/api-error.ts';
import { recordProviderEvent, type SesEvent } from './record-provider-event.ts';
import { SesEventMessage, type SnsEnvelope } from '../../../schemas/provider-events.ts';
import { validate } from '../../../schemas/validate.ts';

const require = createRequire(import.meta.url);


const verify = (message: SnsEnvelope): Promise<void> =>
  new Promise((resolve, reject) => {
    const MessageValidator = require('sns-validator');
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
    const confirmed = await fetch(url).then((r) => r.ok, () => false);
    if (!confirmed) throw new ApiError('invalid_parameter', `The subscription could not be confirmed: ${url.origin} did not answer the SubscribeURL with 2xx. SNS retries the confirmation.`);
    return { received: true };
  }
  if (message.Type !== 'Notification') return { received: true };
  let event: SesEvent;
  try {
    event = JSON.parse(message.Message) as SesEvent;
  } catch {
    throw new ApiError('invalid_payload', 'The SNS Message is not an SES event in JSON.');
  }
  try {
    event = validate(SesEventMessage, event) as SesEvent;
  } catch (error) {
    throw new ApiError('validation_error', `The SNS Message is not an SES event: ${(error as Error).message}`);
  }
  return { received: true, applied: await recordProviderEvent(deps, event) };
};
