import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { TransportError } from '../../../ports/mail-transport.ts';
import { eventItem, publishEvents } from '../../events/record-event.ts';
import type { EmailItem, SendJob } from '../email.ts';
import { acquireSendSlot } from './pace.ts';
import { composeMessage } from './compose-message.ts';
import { emailEventData } from './email-event-data.ts';
import { unsubscribeUrl } from '../../audience/unsubscribe-url.ts';
import { countOutcome } from '../../deliverability/guardrail.ts';

/** How long a worker's claim lasts before another may take the email over. */
export const CLAIM_LEASE_MS = 60_000;
/**
 * After a claim expires, how long to wait for the provider's own Send event before sending
 * again: a worker that died after the provider accepted the message is covered by that event.
 */
export const CLAIM_GRACE_MS = 120_000;
/** Transient failures (throttling, 5xx) are retried this many times before the email fails. */
export const MAX_ATTEMPTS = 12;

/** What the worker does with the job afterwards. */
export type Outcome = { readonly kind: 'done' } | { readonly kind: 'retry'; readonly delaySeconds: number };

const done: Outcome = { kind: 'done' };
const addressOf = (mailbox: string) => /<([^>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox;

const claim = async (deps: Deps, e: EmailItem): Promise<string | undefined> => {
  const now = deps.clock.now();
  const token = randomUUID();
  try {
    await deps.db.send(new UpdateCommand({
      TableName: deps.table,
      Key: keys.email.item(e.team_id, e.id),
      UpdateExpression: 'SET #status = :sending, claim_token = :token, claimed_until = :until, attempts = attempts + :one, updated_at = :now',
      ConditionExpression: '#status IN (:queued, :scheduled) OR (#status = :sending AND claimed_until < :expired)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':sending': 'sending', ':queued': 'queued', ':scheduled': 'scheduled', ':token': token, ':until': now + CLAIM_LEASE_MS,
        ':one': 1, ':now': new Date(now).toISOString(), ':expired': now - CLAIM_GRACE_MS,
      },
    }));
    return token;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

const finish = async (deps: Deps, e: EmailItem, token: string, set: Record<string, unknown>, event?: ReturnType<typeof eventItem>) => {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':token': token, ':sending': 'sending' };
  const sets = Object.entries(set).map(([k, v], i) => { names[`#a${i}`] = k; values[`:a${i}`] = v; return `#a${i} = :a${i}`; });
  const update = {
    TableName: deps.table,
    Key: keys.email.item(e.team_id, e.id),
    UpdateExpression: `SET ${sets.join(', ')} REMOVE claim_token, claimed_until, gsi3pk, gsi3sk`,
    // Only the claim holder records the outcome, and only while the provider's events have not moved it on.
    ConditionExpression: '#status = :sending AND claim_token = :token',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  try {
    await deps.db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...(event ? [{ Put: { TableName: deps.table, Item: event.item } }] : [])] }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) return;
    throw error;
  }
  if (event) await publishEvents(deps, [event.record]);
};

const release = async (deps: Deps, e: EmailItem, token: string) => {
  await deps.db.send(new UpdateCommand({
    TableName: deps.table,
    Key: keys.email.item(e.team_id, e.id),
    UpdateExpression: 'SET #status = :queued REMOVE claim_token, claimed_until',
    ConditionExpression: '#status = :sending AND claim_token = :token',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':queued': 'queued', ':sending': 'sending', ':token': token },
  })).catch((error) => { if (!(error instanceof ConditionalCheckFailedException)) throw error; });
};

/**
 * Sends one queued email to the provider exactly once: claims it (so no two workers send it),
 * paces to the provider rate, builds the MIME message, sends, and records `sent` with an
 * email.sent event. Throttling and transient faults are retried with backoff; permanent
 * refusals end in `failed` with the reason.
 */
export const deliverEmail = async (deps: Deps, job: SendJob): Promise<Outcome> => {
  const found = await deps.db.send(new GetCommand({ TableName: deps.table, Key: keys.email.item(job.teamId, job.emailId), ConsistentRead: true }));
  const e = found.Item as EmailItem | undefined;
  if (!e) return done;
  if (e.status === 'scheduled' && e.scheduled_at && Date.parse(e.scheduled_at) > deps.clock.now() + 1000) return done;
  const token = await claim(deps, e);
  if (!token) return done;
  let providerMessageId: string;
  try {
    await acquireSendSlot(deps, e.region);
    // Topic sends carry the service's one-click unsubscribe link (for the first recipient).
    const unsubscribe = e.topic_id ? unsubscribeUrl(deps, { teamId: e.team_id, email: addressOf(e.to[0]!), topicId: e.topic_id }) : null;
    const raw = await composeMessage(deps, e, unsubscribe);
    ({ providerMessageId } = await deps.mail.send({
      region: e.region,
      from: addressOf(e.from),
      recipients: [...e.to, ...e.cc, ...e.bcc].map(addressOf),
      raw,
      tags: { team_id: e.team_id, email_id: e.id },
    }));
  } catch (error) {
    // Anything but a classified provider refusal is ambiguous (the provider may have accepted):
    // keep the claim, fail the job, and let the provider's events or the lease settle it.
    if (!(error instanceof TransportError)) throw error;
    const attempts = (e.attempts ?? 0) + 1;
    if (error.kind === 'permanent' || attempts >= MAX_ATTEMPTS) {
      const reason = error.message;
      await finish(deps, e, token, { status: 'failed', failure_reason: reason, updated_at: new Date(deps.clock.now()).toISOString() },
        eventItem(deps, e.team_id, 'email.failed', { ...emailEventData(e), failed: { reason } }));
      return done;
    }
    await release(deps, e, token);
    return { kind: 'retry', delaySeconds: Math.min(300, 2 ** attempts + Math.random()) };
  }
  await countOutcome(deps, e.team_id, 'sent');
  const now = new Date(deps.clock.now()).toISOString();
  await finish(deps, e, token, { status: 'sent', provider_message_id: providerMessageId, updated_at: now, ...keys.email.byProviderMessage(providerMessageId) },
    eventItem(deps, e.team_id, 'email.sent', emailEventData(e)));
  return done;
};
