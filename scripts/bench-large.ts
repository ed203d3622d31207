/**
 * Large-email figures for `npm run bench`: what one email with a 5 MB HTML body and a 10 MB
 * attachment costs against a small one (accept latency, DynamoDB items, content-store objects
 * and bytes from accept to provider), and its storage and request cost at list prices.
 */
import { randomBytes } from 'node:crypto';
import type { Resend } from 'resend';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import type { LocalHost } from '../lib/local/host.ts';
import { sendingTeam } from './bench-team.ts';

const LARGE = Number(process.env.BENCH_LARGE ?? 3);
const SMALL = 20;

/** US East list prices (USD) the cost figure uses: S3 Standard and SES outbound. */
const PRICE = {
  s3PutPer1000: 0.005,
  s3GetPer1000: 0.0004,
  s3GbMonth: 0.023,
  sesPer1000: 0.1,
  sesAttachmentGb: 0.12,
  /** Days a large body is kept (EMAIL_CONTENT_RETENTION_DAYS, the bucket's expiry). */
  retentionDays: 90,
};

const GB = 1024 ** 3;

export const benchLargeEmails = async (host: LocalHost): Promise<void> => {
  const deps = host.deps;
  const { team, resend } = await sendingTeam(host, {
    name: 'Bench large',
    domain: 'large.bench.example.com',
    plan: 'scale',
  });
  const from = 'Bench <bench@large.bench.example.com>';

  /** Sends `n` emails one after another; accept latency per email and the counters it moved up to delivery. */
  const run = async (n: number, make: (i: number) => Parameters<Resend['emails']['send']>[0]) => {
    const before = { ...deps.counters };
    const latencies: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const out = await resend.emails.send(make(i));
      latencies.push(performance.now() - start);
      if (out.error) throw new Error(`large-email bench send failed: ${out.error.message}`);
      ids.push(out.data!.id);
    }
    // Waits on the provider's count, not by reading the emails (those reads would be counted).
    const deadline = Date.now() + 5 * 60_000;
    while (deps.counters.providerSends - before.providerSends < n && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const after = { ...deps.counters };
    for (const id of ids)
      if ((await getEmail(deps, team.id, id)).status === 'failed') throw new Error(`large-email bench: ${id} failed`);
    const per = (
      k: Exclude<
        keyof typeof before,
        'sendLateMs' | 'callPlannedAt' | 'callReleasedAt' | 'callAnsweredAt' | 'ddbSpans' | 'byFunction'
      >,
    ) => (after[k] - before[k]) / n;
    latencies.sort((a, b) => a - b);
    return {
      medianMs: latencies[Math.floor(latencies.length / 2)]!,
      writes: per('ddbWrites'),
      reads: per('ddbReads'),
      puts: per('contentPuts'),
      putBytes: per('contentPutBytes'),
      gets: per('contentGets'),
      getBytes: per('contentGetBytes'),
    };
  };

  const small = await run(SMALL, (i) => ({
    from,
    to: 'delivered@resend.dev',
    subject: `Small ${i}`,
    html: '<p>Hello</p>',
  }));
  const html =
    `<html><body>${'<p>A long newsletter paragraph with inlined content.</p>'.repeat(Math.ceil(5_000_000 / 55))}</body></html>`.slice(
      0,
      5_000_000,
    );
  const attachment = randomBytes(10_000_000).toString('base64');
  const large = await run(LARGE, (i) => ({
    from,
    to: 'delivered@resend.dev',
    subject: `Large ${i}`,
    html,
    attachments: [{ filename: 'archive.bin', content: attachment, contentType: 'application/octet-stream' }],
  }));

  const storedGb = large.putBytes / GB;
  const cost =
    (large.puts / 1000) * PRICE.s3PutPer1000 +
    (large.gets / 1000) * PRICE.s3GetPer1000 +
    storedGb * PRICE.s3GbMonth * (PRICE.retentionDays / 30) +
    PRICE.sesPer1000 / 1000 +
    (15_000_000 / GB) * PRICE.sesAttachmentGb;
  const mb = (b: number) => (b / 1_000_000).toFixed(1);
  console.log(
    `large email         5 MB HTML + 10 MB attachment, ${LARGE} sent: accept median ${large.medianMs.toFixed(0)} ms (${(large.medianMs / small.medianMs).toFixed(1)}x a small email's ${small.medianMs.toFixed(0)} ms)`,
  );
  console.log(
    `  per large email to the provider: ${large.writes.toFixed(1)} DynamoDB writes, ${large.reads.toFixed(1)} reads (small: ${small.writes.toFixed(1)}, ${small.reads.toFixed(1)}); content store ${large.puts.toFixed(1)} puts (${mb(large.putBytes)} MB), ${large.gets.toFixed(1)} gets (${mb(large.getBytes)} MB); small emails ${small.puts.toFixed(1)} puts`,
  );
  console.log(
    `  cost per large email at list prices: $${cost.toFixed(5)} (S3 requests, ${PRICE.retentionDays} days of storage, SES message and attachment data)`,
  );
};
