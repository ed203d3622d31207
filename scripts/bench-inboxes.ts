/**
 * Inbox figures for `npm run bench` (`BENCH_ONLY=inboxes`): `resend.inboxes.threads.list` p50/p99
 * on an inbox of BENCH_INBOX_MESSAGES (10,000) messages, first pages, pages deep behind a cursor
 * and filtered pages, plus a bounded `threads.search`; and what the inbox counters cost each
 * received message (the extra item of the receive transaction, the thread read, the row sizes).
 */
import nodemailer from 'nodemailer';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { threadDigest } from '@mailstack/core/domain/mailboxes/thread-digest';
import { keys } from '@mailstack/core/table/keys';
import { batchWriteItems, getItem, queryAll } from '@mailstack/core/table/ops';
import type { LocalHost } from '../lib/local/host.ts';
import { sendingTeam } from './bench-team.ts';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (x: number) => x.toFixed(1);

/** Times `n` sequential calls of `one`: p50 and p99 in ms. */
const timed = async (n: number, one: (i: number) => Promise<void>) => {
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await one(i);
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  return `p50 ${ms(pct(latencies, 50))} ms, p99 ${ms(pct(latencies, 99))} ms`;
};

/** A DynamoDB item's size as billed, near enough: its JSON bytes. */
const bytes = (item: Record<string, unknown> | undefined) => Buffer.byteLength(JSON.stringify(item ?? {}));

export const benchInboxes = async (host: LocalHost): Promise<void> => {
  const deps = host.deps;
  const messages = Number(process.env.BENCH_INBOX_MESSAGES ?? 10_000);
  const perThread = 4;
  const received = Number(process.env.BENCH_INBOX_RECEIVED ?? 100);

  const { team: made, resend } = await sendingTeam(host, {
    name: 'Bench inboxes',
    domain: 'inboxes.bench.example.com',
  });
  const team = (await getTeam(deps, made.id))!;
  const owner = await createUser(deps, { email: `inbox-owner-${Date.now()}@people.example.com`, name: 'Owner' });
  await addMember(deps, team, owner, 'owner');
  const created = await resend.inboxes.create({ emailAddress: 'desk@inboxes.bench.example.com' });
  if (created.error) throw new Error(`could not create the inbox: ${created.error.message}`);
  const inboxId = created.data!.id;

  // 9a. The counters' cost: messages through the local MX, half starting threads, half answering them.
  const mx = nodemailer.createTransport({
    host: '127.0.0.1',
    port: host.inbound.port,
    secure: false,
    ignoreTLS: true,
  });
  const firsts: string[] = [];
  const receiveMs: number[] = [];
  for (let n = 0; n < received; n++) {
    const answers = n % 2 === 1 ? firsts[(n - 1) / 2] : undefined;
    const t = performance.now();
    const info = await mx.sendMail({
      from: `Sender ${n} <sender${n}@outside.example.org>`,
      to: 'desk@inboxes.bench.example.com',
      subject: answers ? `Re: Question ${n - 1}` : `Question ${n}`,
      text: `Message ${n}: ${'words of the message '.repeat(20)}`,
      ...(answers ? { inReplyTo: answers, references: [answers] } : {}),
    });
    receiveMs.push(performance.now() - t);
    if (!answers) firsts.push(info.messageId);
  }
  mx.close();
  receiveMs.sort((a, b) => a - b);
  const mailboxRow = await getItem(deps, keys.mailbox.item(team.id, inboxId));
  const threadRows = (
    await queryAll(deps, { pk: keys.mailbox.threadPartition(team.id, inboxId), prefix: keys.mailbox.threadPrefix })
  )
    .map(bytes)
    .sort((a, b) => a - b);
  const inbox = (await resend.inboxes.get(inboxId)).data!;

  // 9b. An inbox of `messages` messages (`perThread` to a thread over 30 days), written straight to
  // the table in the shape the receive path writes, then listed through the SDK.
  const now = Date.now();
  const rows: Record<string, unknown>[] = [];
  for (let t = 0; t < messages / perThread; t++) {
    const threadId = deps.ids.next();
    const last = new Date(now - 86_400_000 - t * 259_000).toISOString();
    let digest: ReturnType<typeof threadDigest> | undefined;
    for (let i = 0; i < perThread; i++) {
      const id = deps.ids.next();
      const from = `Customer ${t} <customer${t}@outside.example.org>`;
      const text = `Message ${i} of thread ${t}: ${'words of the message '.repeat(20)}`;
      digest = threadDigest(digest, {
        subject: `Order ${t}`,
        text,
        from,
        recipients: ['desk@inboxes.bench.example.com'],
      });
      rows.push({
        ...keys.message.item(team.id, id),
        ...keys.message.folderListing(team.id, inboxId, 'inbox', id),
        ...keys.message.threadListing(team.id, threadId, id),
        type: 'message',
        id,
        team_id: team.id,
        mailbox_id: inboxId,
        thread_id: threadId,
        direction: 'inbound',
        folder: 'inbox',
        from,
        to: ['desk@inboxes.bench.example.com'],
        subject: `Order ${t}`,
        message_id: `${id}@outside.example.org`,
        text,
        attachments: [],
        read: false,
        created_at: last,
      });
    }
    rows.push({
      ...keys.mailbox.thread(team.id, inboxId, threadId),
      ...keys.mailbox.threadListing(team.id, inboxId, 'inbox', last, threadId),
      type: 'thread',
      id: threadId,
      team_id: team.id,
      mailbox_id: inboxId,
      subject: `Order ${t}`,
      folder: 'inbox',
      labels: [],
      read: t % 3 === 0,
      message_count: perThread,
      has_attachment: false,
      has_draft: false,
      last_from: `Customer ${t} <customer${t}@outside.example.org>`,
      last_to: ['desk@inboxes.bench.example.com'],
      last_cc: [],
      last_bcc: [],
      ...digest,
      created_at: last,
      last_message_at: last,
    });
  }
  const seedStart = performance.now();
  await batchWriteItems(deps, { put: rows });
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const sel = { inboxId };
  const first = await timed(100, async () => {
    const r = await resend.inboxes.threads.list({ ...sel, limit: 20 });
    if (r.error) throw new Error(r.error.message);
  });
  let after: string | undefined;
  const deep = await timed(100, async () => {
    const r = await resend.inboxes.threads.list({ ...sel, limit: 20, ...(after ? { after } : {}) });
    if (r.error) throw new Error(r.error.message);
    after = r.data!.data.at(-1)?.id;
  });
  const filtered = await timed(100, async () => {
    const r = await resend.inboxes.threads.list({ ...sel, limit: 20, folders: ['inbox'], read: false });
    if (r.error) throw new Error(r.error.message);
  });
  const search = await timed(20, async () => {
    const r = await resend.inboxes.threads.search({ ...sel, query: 'order 2490', limit: 20 });
    if (r.error) throw new Error(r.error.message);
  });

  console.log(
    `inbox threads.list  ${messages} messages in ${messages / perThread} threads (seeded in ${seedSeconds.toFixed(1)} s): first page (limit 20) ${first}; 100 pages deep behind a cursor ${deep}; folders=inbox&read=false ${filtered}; threads.search of words (bounded to 2,000 rows a folder) ${search}`,
  );
  console.log(
    `inbox counters      ${received} messages through the MX (half answering): handed over->stored p50 ${ms(pct(receiveMs, 50))} ms, p99 ${ms(pct(receiveMs, 99))} ms; unread ${inbox.unread}, last_received ${inbox.last_received ? 'set' : 'missing'}; per message the receive transaction writes one more item (the mailbox row, ${bytes(mailboxRow)} bytes: 2 WCU transactional) and an answer reads its thread first (1 RCU strongly consistent up to 4 KB); thread rows with their digest p50 ${pct(threadRows, 50)} bytes, max ${threadRows.at(-1)} bytes`,
  );
};
