import type { Resend } from 'resend';

/** A value for an error message: JSON, cut short (a failed wait on a list must not print megabytes). */
const brief = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
};

/**
 * Reads until `done` holds and answers the value that satisfied it: the one poll-until of the
 * tests (the service works in the background, so a test waits for what it caused). Past
 * `timeoutMs` it fails, naming `what` it waited for and the last value read.
 */
export const waitFor = async <T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  {
    what = 'the awaited state',
    timeoutMs = 20_000,
    everyMs = 150,
  }: { what?: string; timeoutMs?: number; everyMs?: number } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} did not come within ${timeoutMs} ms; last read: ${brief(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

/** Polls GET /emails/{id} through the SDK until its last_event is one of `wanted`; answers the email. */
export const emailReaches = async (resend: Resend, id: string, wanted: readonly string[], timeoutMs = 20_000) => {
  const email = await waitFor(
    async () => (await resend.emails.get(id)).data,
    (data) => wanted.includes(data?.last_event ?? ''),
    { what: `email ${id} reaching ${wanted.join('/')}`, timeoutMs },
  );
  return email!;
};

/** How much of the UTC day a test that counts a day's quota needs left when it starts. */
const DAY_MS = 86_400_000;

/**
 * Waits, only when fewer than `needMs` of the UTC day are left, for the next UTC day: a test whose
 * assertions count one day's quota (used today, the rest tomorrow) must not have midnight pass
 * between its setup and its checks. Elsewhere in the day it answers at once.
 */
export const clearOfUtcMidnight = async (needMs = 180_000): Promise<void> => {
  const left = DAY_MS - (Date.now() % DAY_MS);
  if (left >= needMs) return;
  await waitFor(
    async () => DAY_MS - (Date.now() % DAY_MS),
    (remaining) => remaining >= needMs,
    { what: 'the next UTC day', timeoutMs: left + 5_000, everyMs: 1_000 },
  );
};
