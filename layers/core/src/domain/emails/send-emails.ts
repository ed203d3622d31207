import type { Deps } from '../../runtime/deps.ts';
import type { Caller } from '../caller.ts';
import { ApiError, isApiError } from '../../errors/api-error.ts';
import { assertNotSuspended, teamNow } from '../teams/team.ts';
import { validate } from '../../schemas/validate.ts';
import { SendEmailRequest } from '../../schemas/emails.ts';
import type { BatchMode } from '../../schemas/batch.ts';
import { checkBatch } from '../batch.ts';
import { assertSendingAllowed } from '../deliverability/guardrail.ts';
import { prepareEmail, sendLookups } from './prepare-email.ts';
import { acceptEmails } from './accept-emails.ts';
import { validateMessageId } from './rules/headers.ts';
import type { MailboxSent } from './email.ts';
import { applyTemplate, type TemplateCache } from '../templates/apply-template.ts';

/** Options of a send beyond the request body (the SMTP relay's message). */
export interface SendOptions {
  /** Keep this Message-ID instead of making one (checked like a header). */
  readonly messageId?: string;
  /**
   * The id the email takes (an automation's send step chooses it before sending, so a redelivered
   * step finds its email already accepted instead of sending again); absent, a new one.
   */
  readonly emailId?: string;
  /** A mailbox's outgoing message: where its sent copy is, so the Message-ID the provider writes is indexed there. */
  readonly mailboxSent?: MailboxSent;
}

/**
 * The team-level refusals of a send, answered once per call: a suspended team, a paused one. They
 * are read from the team as it is now, beside the send's own reads (`prepare`), so a suspension
 * made anywhere holds from the next send at no extra round trip; they answer before what
 * `prepare` found wrong, and nothing is written before they pass.
 */
const admittedSender = async <T>(deps: Deps, caller: Caller, prepare: () => Promise<T>): Promise<T> => {
  const admitted = teamNow(deps, caller.team).then(async (team) => {
    assertNotSuspended(team);
    await assertSendingAllowed(deps, team);
  });
  const [prepared] = await Promise.allSettled([prepare(), admitted]);
  await admitted;
  if (prepared.status === 'rejected') throw prepared.reason;
  return prepared.value;
};

/** POST /emails (and each SMTP relay message): one email (a template applied) through every send rule, stored and queued. */
export const sendEmail = async (
  deps: Deps,
  caller: Caller,
  input: SendEmailRequest,
  options: SendOptions = {},
): Promise<{ id: string }> => {
  const { prepared, messageId } = await admittedSender(deps, caller, async () => ({
    messageId: options.messageId === undefined ? undefined : validateMessageId(options.messageId),
    prepared: await prepareEmail(deps, caller, await applyTemplate(deps, caller.team.id, input)),
  }));
  const [email] = await acceptEmails(deps, caller, [
    {
      ...prepared,
      ...(messageId === undefined ? {} : { messageId }),
      ...(options.emailId === undefined ? {} : { id: options.emailId }),
      ...(options.mailboxSent === undefined ? {} : { mailboxSent: options.mailboxSent }),
    },
  ]);
  return { id: email!.id };
};

/**
 * POST /emails/batch under the batch-validation rule (domain/batch.ts): team-level refusals
 * (suspension, pause, quota) answer once for the whole call; item errors go by index. The items
 * are checked together: one domain read per sending domain, their suppression reads gathered.
 */
export const sendBatch = async (deps: Deps, caller: Caller, items: readonly unknown[], mode: BatchMode) => {
  const lookups = sendLookups(deps, caller);
  const templates: TemplateCache = new Map();
  const { valid, errors } = await admittedSender(deps, caller, () =>
    checkBatch(items, mode, async (raw) => {
      try {
        return await prepareEmail(
          deps,
          caller,
          await applyTemplate(deps, caller.team.id, validate(SendEmailRequest, raw), templates),
          lookups,
        );
      } catch (error) {
        // A suppressed batch item is a rule refusal of that item (spec §7: validation_error).
        if (isApiError(error) && error.name === 'all_recipients_suppressed')
          throw new ApiError('validation_error', error.message, { cause: error });
        throw error;
      }
    }),
  );
  const emails = await acceptEmails(
    deps,
    caller,
    valid.map((p) => p.value),
  );
  const data = emails.map((e) => ({ id: e.id }));
  return mode === 'permissive' ? { data, errors } : { data };
};
