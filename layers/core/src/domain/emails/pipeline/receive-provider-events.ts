import type { Deps } from '../../../runtime/deps.ts';
import { recordProviderEvent, type SesEvent } from './record-provider-event.ts';

/** An SNS notification as SNS puts it on an SQS queue (raw message delivery off). */
export interface SnsNotification {
  readonly Type: string;
  readonly TopicArn: string;
  readonly Message: string;
  readonly MessageId?: string;
}

/**
 * Applies one SES event that reached the provider-events queue through the service's own SNS
 * topic. A notification from any other topic is refused (it fails and ends in the dead-letter
 * queue, where the alarm shows it), as is one that is not an SES event in JSON.
 */
export const receiveProviderNotification = async (deps: Deps, notification: SnsNotification): Promise<'applied' | 'ignored'> => {
  const expected = deps.config.SES_EVENTS_TOPIC_ARN;
  if (!expected || notification.TopicArn !== expected) {
    throw new Error(`provider event from topic ${JSON.stringify(notification.TopicArn)} refused: only SES_EVENTS_TOPIC_ARN (${JSON.stringify(expected)}) may publish here`);
  }
  if (notification.Type !== 'Notification') return 'ignored';
  let event: SesEvent;
  try {
    event = JSON.parse(notification.Message) as SesEvent;
  } catch {
    throw new Error(`provider event ${notification.MessageId ?? ''} is not an SES event in JSON`);
  }
  if (!event?.mail?.messageId) throw new Error(`provider event ${notification.MessageId ?? ''} has no mail.messageId: not an SES event`);
  return recordProviderEvent(deps, event);
};
