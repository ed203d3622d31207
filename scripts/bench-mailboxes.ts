/**
 * Mailbox figures for `npm run bench`: inbound messages stored per second through the local MX
 * and the time from handing a message over to its being stored (p50, p99), and the mailbox agent
 * API's draft saves and sends (requests per second, p50, p99), its send latency as a ratio of the
 * run's own `POST /emails` p50.
 */
import nodemailer from 'nodemailer';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { createMailboxKey } from '@mailstack/core/domain/mailboxes/create-mailbox-key';
import { grantMailboxLicense } from '@mailstack/core/domain/mailboxes/grant-mailbox-license';
import { listFolder } from '@mailstack/core/domain/mailboxes/read-messages';
import type { Mailbox } from '@mailstack/core/domain/mailboxes/mailbox';
import type { LocalHost } from '../lib/local/host.ts';
import { sendingTeam } from './bench-team.ts';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** How many messages the mailbox's inbox holds (pages of 100, newest first). */
const inboxCount = async (host: LocalHost, m: Mailbox): Promise<number> => {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = await listFolder(host.deps, m.teamId, m.id, 'inbox', { limit: 100, ...(after ? { after } : {}) });
    count += page.items.length;
    if (!page.hasMore) return count;
    after = page.items.at(-1)!.id;
  }
};

/** Runs `n` calls of `one` with `concurrency` in flight, timing each; the wall time in seconds. */
const timed = async (n: number, concurrency: number, one: (i: number) => Promise<void>) => {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await one(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { seconds: (performance.now() - start) / 1000, latencies: latencies.sort((a, b) => a - b) };
};

/** A call of the mailbox agent API (the dashboard's origin); throws unless it answers `status`. */
const agent = async (host: LocalHost, key: string, path: string, body: unknown, status: number): Promise<any> => {
  const res = await fetch(`${host.dashboardUrl}/api/mailbox-agent${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== status)
    throw new Error(`POST /api/mailbox-agent${path} answered ${res.status}, not ${status}: ${text}`);
  return JSON.parse(text);
};

/**
 * Runs both figures on a started host (workers running) and prints them; `emailsP50Ms` is the
 * run's `POST /emails` p50 at `concurrency`, which the agent API sends are measured against.
 */
export const benchMailboxes = async (
  host: LocalHost,
  options: { concurrency: number; emailsP50Ms: number },
): Promise<void> => {
  const { concurrency, emailsP50Ms } = options;
  const inbound = Number(process.env.BENCH_INBOUND ?? 200);
  const drafts = Number(process.env.BENCH_AGENT ?? 200);
  const connections = 4;
  const deps = host.deps;

  // A team with a verified domain, a person owning its mailbox, the mailbox and a key that may send.
  const { team: made, domain } = await sendingTeam(host, {
    name: 'Bench mailboxes',
    domain: 'mailboxes.bench.example.com',
  });
  const team = (await getTeam(deps, made.id))!;
  const owner = await createUser(deps, { email: `owner-${Date.now()}@people.example.com`, name: 'Owner' });
  await addMember(deps, team, owner, 'member');
  // A cloud host drafts and sends only under a license; a self-hosted one has none to grant.
  if (deps.config.CLOUD)
    await grantMailboxLicense(deps, team.id, { seats: 1, storageBytes: 1024 ** 3, recipientAllowance: drafts * 2 });
  const mailbox = await createMailbox(deps, {
    teamId: team.id,
    domainId: domain.id,
    localPart: 'desk',
    name: 'Bench Desk',
    ownerUserId: owner.id,
  });
  const { secret: mailboxKey } = await createMailboxKey(deps, {
    teamId: team.id,
    mailboxId: mailbox.id,
    actorUserId: owner.id,
    name: 'bench',
    send: true,
  });

  // 8a. Inbound: messages to the mailbox over a few connections to the local MX, which answers
  // 250 only once the copy is stored, so each message's time to that answer is its time to stored.
  const mx = nodemailer.createTransport({
    host: '127.0.0.1',
    port: host.inbound.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
  });
  const received = await timed(inbound, connections, async (n) => {
    await mx.sendMail({
      from: `Sender ${n} <sender${n}@outside.example.org>`,
      to: mailbox.address,
      subject: `Inbound ${n}`,
      text: 'Hello, mailbox.',
    });
  });
  mx.close();
  const stored = await inboxCount(host, mailbox);

  // 8b. The agent API: drafts saved, then sent, at POST /emails's concurrency.
  const ids: string[] = [];
  const saved = await timed(drafts, concurrency, async (n) => {
    const draft = await agent(
      host,
      mailboxKey,
      '/drafts',
      {
        expectedRevision: 0,
        to: [`reader${n}@example.com`],
        subject: `Agent ${n}`,
        text: 'Hello from the mailbox agent.',
        retainedAttachments: [],
        uploads: [],
      },
      200,
    );
    ids[n] = draft.id;
  });
  const emailIds: string[] = [];
  const sent = await timed(drafts, concurrency, async (n) => {
    const out = await agent(host, mailboxKey, '/send', { id: ids[n], expectedRevision: 0 }, 202);
    if (out.status === 'admitted') emailIds.push(out.emailId);
  });
  // Admission is not delivery: wait for the sends to reach the provider stand-in (none lost).
  const deadline = Date.now() + 5 * 60_000;
  while (!emailIds.every((id) => host.provider.acceptedAt.has(id)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const delivered = emailIds.filter((id) => host.provider.acceptedAt.has(id)).length;

  const ms = (x: number) => x.toFixed(1);
  console.log(
    `mailbox inbound     ${inbound} messages to one mailbox over ${connections} connections: ${(inbound / received.seconds).toFixed(1)} stored/s; handed over->stored p50 ${ms(pct(received.latencies, 50))} ms, p99 ${ms(pct(received.latencies, 99))} ms; ${stored} of ${inbound} in the inbox`,
  );
  console.log(
    `mailbox agent API   ${drafts} drafts, ${concurrency} concurrent: save ${(drafts / saved.seconds).toFixed(1)} req/s, p50 ${ms(pct(saved.latencies, 50))} ms, p99 ${ms(pct(saved.latencies, 99))} ms; send ${(drafts / sent.seconds).toFixed(1)} req/s, p50 ${ms(pct(sent.latencies, 50))} ms, p99 ${ms(pct(sent.latencies, 99))} ms (${emailIds.length} admitted, ${delivered} at the provider)`,
  );
  console.log(
    `                    send p50 / POST /emails p50: ${(pct(sent.latencies, 50) / emailsP50Ms).toFixed(2)}x (${ms(emailsP50Ms)} ms)`,
  );
};
