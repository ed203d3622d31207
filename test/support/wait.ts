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
