import { MailstackError } from '../../../errors/mailstack-error.ts';
import * as v from 'valibot';
import type { Deps } from '../../../runtime/deps.ts';
import { SesEventMessage, SnsEnvelope } from '../../../schemas/provider-events.ts';
import { describeIssue } from '../../../schemas/validate.ts';
import { recordProviderEvent, type SesEvent } from './record-provider-event.ts';

/** An SNS notification as SNS puts it on an SQS queue (raw message delivery off). */
export interface SnsNotification {
  readonly Type: string;
  readonly TopicArn: string;
  readonly Message: string;
  readonly MessageId?: string;
}

/**
 * The plain-text notification SES publishes once to a new SNS event destination (when the stack
 * creates or re-creates it), wrapped like any event by SNS.
 */
const SES_TOPIC_VALIDATION = 'Successfully validated SNS topic for Amazon SES event publishing.';

/** Why a provider message was refused: it fails, and after its retries waits in the dead-letter queue. */
export type ProviderEventRefusal = 'foreign_topic' | 'malformed_envelope' | 'not_an_ses_event';

/** A provider message refused before anything is recorded, with the reason. */
export class ProviderEventRefused extends MailstackError {
  constructor(
    readonly reason: ProviderEventRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderEventRefused';
  }
}

/**
 * Applies one SES event that reached the provider-events queue through the service's own SNS
 * topic (the queue message's body, or the notification already parsed). Refused, with nothing
 * recorded (a ProviderEventRefused, so the message ends in the dead-letter queue, where the alarm
 * shows it): a notification from any other topic, an envelope that is not SNS's (not JSON, no
 * `Type`, a SubscriptionConfirmation without its SubscribeURL), and a Message that is not an SES
 * event in JSON (`"{}"` included). SES's topic validation notice is dropped, logged. A well-formed subscription or unsubscribe confirmation needs
 * nothing from the worker (the stack's subscription is confirmed by SNS): it is dropped, logged.
 */
export const receiveProviderNotification = async (deps: Deps, body: unknown): Promise<'applied' | 'ignored'> => {
  let notification: unknown = body;
  if (typeof body === 'string') {
    try {
      notification = JSON.parse(body);
    } catch {
      throw new ProviderEventRefused(
        'malformed_envelope',
        'provider message refused: its body is not JSON (an SNS notification)',
      );
    }
  }
  if (typeof notification !== 'object' || notification === null || Array.isArray(notification)) {
    throw new ProviderEventRefused(
      'malformed_envelope',
      'provider message refused: its body is not an SNS notification object',
    );
  }
  const topic = (notification as { TopicArn?: unknown }).TopicArn;
  const expected = deps.config.SES_EVENTS_TOPIC_ARN;
  if (!expected || topic !== expected) {
    throw new ProviderEventRefused(
      'foreign_topic',
      `provider event from topic ${JSON.stringify(topic)} refused: only SES_EVENTS_TOPIC_ARN (${JSON.stringify(expected)}) may publish here`,
    );
  }
  const envelope = v.safeParse(SnsEnvelope, notification);
  const messageId = String((notification as { MessageId?: unknown }).MessageId ?? '');
  if (!envelope.success) {
    throw new ProviderEventRefused(
      'malformed_envelope',
      `provider message ${messageId} refused: not an SNS envelope (${describeIssue(envelope.issues[0])})`,
    );
  }
  if (envelope.output.Type !== 'Notification') {
    deps.logger.info('provider message ignored: nothing to apply', {
      sns_type: envelope.output.Type,
      sns_message_id: messageId,
    });
    return 'ignored';
  }
  // SES's plain-text notice to a new event destination: no event, nothing to apply (not a refusal).
  if (envelope.output.Message.trim() === SES_TOPIC_VALIDATION) {
    deps.logger.info('provider message ignored: the topic validation SES publishes to a new destination', {
      sns_message_id: messageId,
    });
    return 'ignored';
  }
  let message: unknown;
  try {
    message = JSON.parse(envelope.output.Message);
  } catch {
    throw new ProviderEventRefused('not_an_ses_event', `provider event ${messageId} refused: its Message is not JSON`);
  }
  const event = v.safeParse(SesEventMessage, message);
  if (!event.success) {
    throw new ProviderEventRefused(
      'not_an_ses_event',
      `provider event ${messageId} refused: not an SES event (${describeIssue(event.issues[0])})`,
    );
  }
  return recordProviderEvent(deps, event.output as SesEvent);
};
