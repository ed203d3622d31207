import { local } from './local.ts';
import { waitFor } from './wait.ts';

/**
 * The local inbox: every email the service handed to the SES stand-in, read from its JSON store.
 * Only the last two minutes' mail is read: a test looks for mail it has just caused, and the
 * whole store of a long run is large.
 */

/** One read of the inbox's last two minutes, bounded in time (a stalled read fails, it is not waited on). */
export const inboxEmails = async (timeoutMs = 10_000): Promise<any[]> => {
  const since = Math.floor(Date.now() / 1000) - 120;
  const response = await fetch(`${local().inboxUrl}/store?since=${since}`, { signal: AbortSignal.timeout(timeoutMs) });
  return ((await response.json()) as { emails: any[] }).emails;
};

/**
 * Polls the local inbox for the first message `match` accepts. The SES stand-in adds a raw
 * message's headers to its entry a moment after storing it: an entry seen without them is read
 * again until they are there (or, for a message sent without raw MIME, for up to 2 s).
 */
export const inboxEntry = async (match: (m: any) => boolean, what: string, timeoutMs = 20_000): Promise<any> => {
  const until = Date.now() + timeoutMs;
  let seenAt: number | undefined;
  while (Date.now() < until) {
    // A stalled or failed read is tried again.
    const emails = await inboxEmails(Math.max(1_000, until - Date.now())).catch(() => [] as any[]);
    const found = emails.find(match);
    if (found) {
      seenAt ??= Date.now();
      if (found.headers || Date.now() - seenAt > 2_000) return found;
    }
    await new Promise((r) => setTimeout(r, found ? 50 : 200));
  }
  throw new Error(`no message ${what} reached the local inbox in ${timeoutMs} ms`);
};

/** Polls the local inbox for a message whose subject is exactly `subject`. */
export const inboxMail = (subject: string, timeoutMs = 20_000): Promise<any> =>
  inboxEntry((m) => m.subject === subject, `with the subject "${subject}"`, timeoutMs);

/** Polls the local inbox for a message whose subject contains `subject`. */
export const inboxMessage = (subject: string, timeoutMs = 20_000): Promise<any> =>
  inboxEntry((m) => String(m.subject).includes(subject), `with a subject containing "${subject}"`, timeoutMs);

/** Polls the local inbox for a message to `address` whose subject contains `subject` (others' mail may share the subject). */
export const inboxMessageTo = (address: string, subject: string, timeoutMs = 20_000): Promise<any> =>
  inboxEntry(
    (m) => String(m.subject).includes(subject) && JSON.stringify(m.destination ?? '').includes(address),
    `with a subject containing "${subject}" to ${address}`,
    timeoutMs,
  );

/** Polls the local inbox until at least `count` messages' subjects start with `prefix`; answers them all. */
export const inboxMessagesStartingWith = (prefix: string, count: number, timeoutMs = 30_000): Promise<any[]> =>
  waitFor(
    async () => (await inboxEmails()).filter((m) => String(m.subject).startsWith(prefix)),
    (found) => found.length >= count,
    { what: `${count} messages with subjects starting "${prefix}" in the local inbox`, timeoutMs, everyMs: 200 },
  );
