/**
 * What a thread's search reads without opening its messages, kept on the thread's row on each
 * message written to it (lower case): its subject and the start of each message's text
 * (`search_text`), its senders (`search_from`) and recipients (`search_to`). Each is bounded:
 * past its cap the oldest words go, so a long thread is searched by its latest messages.
 */

/** Characters of one message's text the digest keeps. */
const TEXT_PER_MESSAGE = 300;
/** Characters each digest field keeps at most (a thread row stays a few KB: each of its writes costs a WCU a KB). */
const FIELD_CAP = 2000;

const keep = (previous: unknown, added: string): string => {
  const joined = `${typeof previous === 'string' ? previous : ''} ${added.toLowerCase()}`.trim();
  return joined.length > FIELD_CAP ? joined.slice(joined.length - FIELD_CAP) : joined;
};

/** The digest fields of a thread after one more message (`previous`: the thread's row before it, if any). */
export const threadDigest = (
  previous: Record<string, unknown> | undefined,
  message: { subject: string; text: string | null; from: string; recipients: readonly string[] },
): { search_text: string; search_from: string; search_to: string } => ({
  search_text: keep(previous?.search_text, `${message.subject} ${(message.text ?? '').slice(0, TEXT_PER_MESSAGE)}`),
  search_from: keep(previous?.search_from, message.from),
  search_to: keep(previous?.search_to, message.recipients.join(' ')),
});
