import type { Deps } from '../../runtime/deps.ts';
import type { Caller } from '../caller.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import type { ResolvedEmail } from '../../schemas/emails.ts';
import { PLANS } from '../teams/plans.ts';
import { MAX_RECIPIENTS } from '../../limits.ts';
import { findSendingDomain, type Domain } from '../domains/domain.ts';
import {
  findSuppressed,
  suppressionLookup,
  type SuppressionLookup,
  type SuppressionOrigin,
} from '../suppressions/suppression-store.ts';
import { topicOptOuts } from '../audience/topic-opt-outs.ts';
import { parseMailbox, parseMailboxList, type Mailbox } from './rules/addresses.ts';
import { assertNotDisguised } from './rules/lookalikes.ts';
import { validateCustomHeaders } from './rules/headers.ts';
import { decodeAttachments, type DecodedAttachment } from './rules/attachments.ts';
import { parseScheduledAt } from './schedule-time.ts';
import { needsReview } from './rules/review-hold.ts';
import type { MailboxSent } from './email.ts';

/** The attachment ceiling when no plan applies (self-hosted): the largest plan's. */
const SELF_HOSTED_ATTACHMENT_BYTES = PLANS.scale.attachmentBytes;

/** An email that passed every send rule, ready to be stored. */
export interface PreparedEmail {
  readonly from: Mailbox;
  readonly to: string[];
  readonly cc: string[];
  readonly bcc: string[];
  readonly replyTo: string[];
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
  readonly headers: Record<string, string> | null;
  readonly tags: { name: string; value: string }[];
  readonly topicId: string | null;
  readonly attachments: DecodedAttachment[];
  readonly scheduledAt: number | undefined;
  readonly domain: Domain;
  /** Held for review instead of going out (spec §3, review hold). */
  readonly held: boolean;
  /** The caller's own Message-ID (SMTP relay); absent, the service makes one. */
  readonly messageId?: string;
  /** A mailbox's outgoing message (SendOptions.mailboxSent). */
  readonly mailboxSent?: MailboxSent;
  /** The email's id when the caller chose it (SendOptions.emailId); absent, a new one. */
  readonly id?: string;
  /** Recipients left out because they are on the team's suppression list, and why (email.suppressed). */
  readonly suppressed?: readonly { readonly address: string; readonly origin: SuppressionOrigin }[];
}

/** The lookups of one call, shared by the items of a batch: sending domains by name, and one batched suppression read. */
export interface SendLookups {
  readonly domains: Map<string, Promise<Domain | undefined>>;
  readonly suppressions: SuppressionLookup;
}

/** Fresh lookups for one call of `caller`. */
export const sendLookups = (deps: Deps, caller: Caller): SendLookups => ({
  domains: new Map(),
  suppressions: suppressionLookup(deps, caller.team.id),
});

const sendingDomain = async (deps: Deps, caller: Caller, from: Mailbox, lookups: SendLookups): Promise<Domain> => {
  const name = from.address.split('@')[1]!.toLowerCase();
  let found = lookups.domains.get(name);
  if (!found) lookups.domains.set(name, (found = findSendingDomain(deps, caller.team.id, name)));
  const domain = await found;
  if (caller.domainId && domain?.id !== caller.domainId) {
    throw new ApiError('restricted_api_key', `This API key may only send from its own domain; ${name} is not it.`);
  }
  if (domain?.status !== 'verified') {
    throw validationError(
      `The ${name} domain is not verified. Add it with POST /domains and verify it (POST /domains/{id}/verify) before sending from it.`,
    );
  }
  return domain;
};

/**
 * Applies every send rule of spec §4 to one email: addresses, recipients cap, sending domain
 * and key scope, disguised sender names and subjects, headers, attachments, suppressions and
 * topic opt-outs. Throws the rule's refusal; returns the email as it will be stored. The
 * team-level refusals (suspension, pause) are the caller's, checked once per call beside these
 * rules (admittedSender in send-emails.ts).
 */
export const prepareEmail = async (
  deps: Deps,
  caller: Caller,
  input: ResolvedEmail,
  lookups: SendLookups = sendLookups(deps, caller),
): Promise<PreparedEmail> => {
  const from = parseMailbox(input.from, 'from');
  let to = parseMailboxList(input.to, 'to');
  let cc = parseMailboxList(input.cc, 'cc');
  let bcc = parseMailboxList(input.bcc, 'bcc');
  const replyTo = parseMailboxList(input.reply_to, 'reply_to');
  if (to.length === 0) throw validationError('`to` needs at least one recipient.');
  const count = to.length + cc.length + bcc.length;
  if (count > MAX_RECIPIENTS)
    throw validationError(
      `An email may have at most ${MAX_RECIPIENTS} recipients across \`to\`, \`cc\` and \`bcc\`; this one has ${count}.`,
    );
  if (from.name) assertNotDisguised(from.name, 'from');
  assertNotDisguised(input.subject, 'subject');
  const headers = validateCustomHeaders(input.headers);
  const cap = deps.config.CLOUD ? PLANS[caller.team.plan].attachmentBytes : SELF_HOSTED_ATTACHMENT_BYTES;
  const attachments = decodeAttachments(input.attachments, cap);
  const scheduledAt = parseScheduledAt(input.scheduled_at, deps.clock.now());
  const topicId = input.topic_id ?? null;
  const everyone = [...to, ...cc, ...bcc].map((m) => m.address);
  // The domain, suppression and topic lookups are independent: one round trip of latency.
  const [domain, suppressed, optedOut] = await Promise.all([
    sendingDomain(deps, caller, from, lookups),
    findSuppressed(deps, caller.team.id, everyone, { withTopic: topicId !== null, lookup: lookups.suppressions }),
    topicId ? topicOptOuts(deps, caller.team.id, topicId, everyone) : Promise.resolve(new Set<string>()),
  ]);
  if (!optedOut) throw validationError(`\`topic_id\`: this team has no topic ${topicId}.`);
  const blocked = new Set([...suppressed.keys(), ...optedOut]);
  const allowed = (m: Mailbox) => !blocked.has(m.address.toLowerCase());
  if (!to.some(allowed)) throw new ApiError('all_recipients_suppressed', 'All recipients are suppressed');
  const leftOut = [...to, ...cc, ...bcc]
    .map((m) => m.address.toLowerCase())
    .filter((a, i, all) => suppressed.has(a) && all.indexOf(a) === i);
  to = to.filter(allowed);
  cc = cc.filter(allowed);
  bcc = bcc.filter(allowed);

  return {
    from,
    to: to.map((m) => m.formatted),
    cc: cc.map((m) => m.formatted),
    bcc: bcc.map((m) => m.formatted),
    replyTo: replyTo.map((m) => m.formatted),
    subject: input.subject,
    html: input.html ?? null,
    text: input.text ?? null,
    headers,
    tags: input.tags ?? [],
    topicId,
    attachments,
    scheduledAt,
    domain,
    suppressed: leftOut.map((address) => ({ address, origin: suppressed.get(address)! })),
    held: needsReview({
      teamCreatedAt: caller.team.createdAt,
      paymentBlocked: caller.team.paymentBlocked,
      senderName: from.name,
      subject: input.subject,
      now: deps.clock.now(),
    }),
  };
};
