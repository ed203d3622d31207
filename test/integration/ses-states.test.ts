import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail, type Outcome } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { readParkedLine } from '@mailstack/core/domain/emails/pipeline/provider-line';
import { lineRate } from '@mailstack/core/table/line-rate';
import { callerOfKey } from '@mailstack/core/domain/caller';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { startSesStandIn, type StandInAccount } from '../../lib/local/stand-ins/ses.ts';
import { freePort } from '../../lib/local/ports.ts';
import {
  receiveProviderNotification,
  type SnsNotification,
} from '@mailstack/core/domain/emails/pipeline/receive-provider-events';
import { local } from '../support/local.ts';
import { waitFor } from '../support/wait.ts';
import { sendingTeam } from '../support/sending.ts';

/**
 * The SES account's states, played by an SES stand-in of this file's own: each parks the region's
 * send line (no email fails, each waits queued, no further call is made) and the line resumes by
 * itself once the state clears.
 */
let ses: Awaited<ReturnType<typeof startSesStandIn>>;
let deps: Deps;
/** SendEmail calls this file's deps made. */
let calls = 0;

beforeAll(async () => {
  const [port, inboxPort] = [await freePort(), await freePort()];
  ses = await startSesStandIn({ port, inboxPort, ratePerSecond: 14, events: 'send' });
  const base = createDeps(
    readConfig({
      ...local().env,
      SES_ENDPOINT: `http://127.0.0.1:${port}`,
      PROVIDER_RATE_PER_SECOND: '14',
      // A parked line is checked again after a second here (60 by default).
      PROVIDER_PARK_CHECK_SECONDS: '1',
    }),
  );
  deps = createDeps(base.config, {
    // No worker of the host takes this file's jobs: the test plays the queue.
    queue: { send: async () => undefined },
    mail: {
      send: (message) => {
        calls++;
        return base.mail.send(message);
      },
    },
  });
});
afterAll(async () => {
  await ses?.stop();
});

let team: Awaited<ReturnType<typeof sendingTeam>>;
beforeAll(async () => {
  team = await sendingTeam();
  // This file's SES stand-in is the same account: the team's domain is verified there too.
  ses.verifyIdentity(team.domain);
});

/** Accepted emails of the file's team, in a region of their own (their own send line). */
const emailsInRegion = async (count: number) => {
  const t = team;
  const caller = callerOfKey(t.key, t.team);
  const prepared = await prepareEmail(deps, caller, {
    from: t.from,
    to: 'delivered@resend.dev',
    subject: 'states',
    text: 'x',
  });
  const region = `states-${randomUUID()}`;
  const emails = await acceptEmails(
    deps,
    caller,
    Array.from({ length: count }, () => ({ ...prepared, domain: { ...prepared.domain, region } })),
  );
  const jobs: SendJob[] = emails.map((e) => ({ teamId: t.team.id, emailId: e!.id }));
  const status = async (job: SendJob) =>
    (await getItem(deps, keys.email.item(job.teamId, job.emailId)))?.status as string | undefined;
  return { region, jobs, status };
};

/** Runs a job as the send queue would: again after each retry's delay, until done or `rounds` runs. */
const run = async (job: SendJob, rounds = 1): Promise<Outcome> => {
  let outcome = await deliverEmail(deps, job);
  for (let i = 1; i < rounds && outcome.kind === 'retry'; i++) {
    await new Promise((r) => setTimeout(r, (outcome as { delaySeconds: number }).delaySeconds * 1000));
    outcome = await deliverEmail(deps, (outcome as { job: SendJob }).job);
  }
  return outcome;
};

/**
 * Each state, how it is set and cleared, the parked line's reason, and the most SendEmail calls a
 * parked check makes: none where GetAccount shows the state; one (a probe) where it cannot (a
 * configuration fault).
 */
describe("the send line's rate", () => {
  it("is SES's maximum send rate (GetAccount) when lower than the ceiling, and the ceiling when higher", async () => {
    try {
      ses.account.maxSendRate = 7;
      const lower = await emailsInRegion(1);
      expect(lineRate(deps, lower.region)).toBe(14);
      expect(await run(lower.jobs[0]!, 6)).toEqual({ kind: 'done' });
      expect(lineRate(deps, lower.region)).toBe(7);
      ses.account.maxSendRate = 100;
      const higher = await emailsInRegion(1);
      expect(await run(higher.jobs[0]!, 6)).toEqual({ kind: 'done' });
      expect(lineRate(deps, higher.region)).toBe(14);
    } finally {
      ses.account.maxSendRate = 14;
    }
  }, 60_000);
});

describe('the send line spends the rate per recipient, as SES counts', () => {
  it('counts a 50-recipient email at 14 a second as 50: the sends after it wait until the rate has recovered, and SES throttles none', async () => {
    const region = `recipients-${randomUUID()}`;
    const caller = callerOfKey(team.key, team.team);
    const prepare = (to: string[], subject: string) =>
      prepareEmail(deps, caller, { from: team.from, to, subject, text: 'x' });
    const big = await prepare(
      Array.from({ length: 50 }, (_, i) => `r${i}@example.com`),
      'fifty',
    );
    const small = await prepare(['one@example.com'], 'one');
    const [wide] = await acceptEmails(deps, caller, [{ ...big, domain: { ...big.domain, region } }]);
    const narrow = await acceptEmails(
      deps,
      caller,
      Array.from({ length: 6 }, () => ({ ...small, domain: { ...small.domain, region } })),
    );
    const throttledBefore = ses.stats.throttled;
    ses.stats.window = 'sliding';
    try {
      // The wide email first, then the others at once, as they would come from the queue.
      const job = (e: { id: string } | undefined) => ({ teamId: team.team.id, emailId: e!.id });
      expect(await run(job(wide), 12)).toEqual({ kind: 'done' });
      const outcomes = await Promise.all(narrow.map((e) => run(job(e), 12)));
      expect(outcomes.every((o) => o.kind === 'done')).toBe(true);
    } finally {
      ses.stats.window = 'calendar';
    }
    expect(ses.stats.throttled - throttledBefore).toBe(0);
    // Its 50 recipients hold the rate for 50 / 14 s: the next call comes after the 36 beyond the
    // second's 14 have gone by (SES lets the wide call through, then refuses calls until then).
    const wideAt = ses.stats.arrivedAt.get(wide!.id)!;
    const after = narrow.map((e) => ses.stats.arrivedAt.get(e!.id)! - wideAt);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(((50 - 14) * 1000) / 14);
  }, 60_000);
});

const STATES: [string, Partial<StandInAccount>, Partial<StandInAccount>, string[], number][] = [
  ['SES paused the account', { sendingPaused: true }, { sendingPaused: false }, ['sending_paused'], 0],
  // Read from GetAccount before a send meets it (SendingEnabled false), or from the send's SendingPausedException.
  [
    "the account's sending disabled",
    { sendingDisabled: true },
    { sendingDisabled: false },
    ['sending_disabled', 'sending_paused'],
    0,
  ],
  // GetAccount shows a suspended account as paused (SHUTDOWN); the send's AccountSuspendedException names it.
  ['the account suspended', { suspended: true }, { suspended: false }, ['account_suspended', 'sending_paused'], 0],
  ['the 24-hour quota spent', { max24HourSend: 0 }, { max24HourSend: -1 }, ['quota_exhausted'], 0],
  ['an IAM refusal', { accessDenied: true }, { accessDenied: false }, ['access_denied'], 0],
  [
    'the configuration set missing',
    { configurationSetMissing: true },
    { configurationSetMissing: false },
    ['configuration'],
    1,
  ],
];

describe('SES account states park the send line: no email fails, and sending resumes by itself', () => {
  for (const [state, on, off, reason, probes] of STATES)
    it(`${state}: the emails wait queued, the line is parked (${reason.join(' or ')}), and both are sent once it clears`, async () => {
      const { region, jobs, status } = await emailsInRegion(2);
      Object.assign(ses.account, on);
      try {
        // The first send meets the state: its email waits queued, its attempt given back, and the
        // line parks (a send the line deferred, on a busy host, comes back and tries again).
        let first = await run(jobs[0]!);
        for (let i = 0; i < 5 && first.kind === 'retry' && !(await readParkedLine(deps, region)); i++) {
          await new Promise((r) => setTimeout(r, (first as { delaySeconds: number }).delaySeconds * 1000));
          first = await run((first as { job: SendJob }).job);
        }
        expect(first.kind).toBe('retry');
        expect(await status(jobs[0]!)).toBe('queued');
        expect((await getItem(deps, keys.email.item(jobs[0]!.teamId, jobs[0]!.emailId)))?.attempts).toBe(0);
        expect(reason).toContain((await readParkedLine(deps, region))?.reason);
        // The next one does not call SES (but to probe a fault GetAccount cannot show); after a
        // check the line is still parked.
        const before = calls;
        const second = await run(jobs[1]!, 2);
        expect(second.kind).toBe('retry');
        expect(calls - before).toBeLessThanOrEqual(probes * 3);
        expect(await status(jobs[1]!)).toBe('queued');
        // (A probe's send may still be on its way to SES: the line may be open until it fails again.)
        if (!probes) expect(await readParkedLine(deps, region)).toBeDefined();
      } finally {
        Object.assign(ses.account, off);
      }
      // Cleared: both go at the line's next check, and the line opens.
      for (const job of jobs) expect(await run(job, 6)).toEqual({ kind: 'done' });
      expect(await Promise.all(jobs.map(status))).toEqual(['sent', 'sent']);
      expect(await readParkedLine(deps, region)).toBeUndefined();
    }, 60_000);
});

describe('a send whose answer was lost', () => {
  it('is not sent again: its worker keeps the claim, the Send event marks it sent, and its job, back later, sends nothing', async () => {
    const { jobs, status } = await emailsInRegion(1);
    const job = jobs[0]!;
    // The provider's events reach the service as through its queue.
    ses.setEventsSink(async (n) => {
      await receiveProviderNotification(deps, n as unknown as SnsNotification);
    });
    ses.account.dropAfterAccept = true;
    let outcome: Outcome;
    try {
      outcome = await deliverEmail(deps, job);
    } finally {
      ses.account.dropAfterAccept = false;
    }
    // SES accepted it, the answer never came: the job comes back only after the claim's lease and grace.
    expect(ses.stats.acceptedAt.has(job.emailId)).toBe(true);
    if (outcome.kind !== 'retry') throw new Error('expected the job back later');
    expect(outcome.delaySeconds).toBeGreaterThanOrEqual(180);
    expect(await status(job)).toBe('sending');
    // The Send event, found by the email_id tag, settles it.
    await waitFor(
      () => status(job),
      (s) => s === 'sent',
      { what: 'the Send event marking the email sent' },
    );
    const accepted = ses.stats.accepted;
    expect(await deliverEmail(deps, outcome.job)).toEqual({ kind: 'done' });
    expect(ses.stats.accepted).toBe(accepted);
  }, 60_000);
});
