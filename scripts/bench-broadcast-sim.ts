/**
 * A 100,000-contact broadcast for `npm run bench`, under a simulated clock and at a provider rate
 * ten times the default (BENCH_SIM_RATE, 140/s; BENCH_SIM_CONTACTS): at the default
 * provider rate (14/s, 9/s for broadcasts) it runs over three hours, far more than a bench can
 * wait, and the local pipeline sends about ten a second on a 2-core machine anyway. What is
 * simulated is time only: each recipient's slot comes from the real planner (`slotAt`, as the
 * fan-out stamps `slot_at`), each send takes its place through the real send line in the table
 * (`takeBroadcastSlot` for broadcast mail, `takeSendSlot` for transactional mail, the clock set
 * to the simulated second), and a send refused its place comes back the next second, as the send
 * worker's job does. Transactional mail arrives beside it at random (Poisson, TRANSACTIONAL per
 * second on average), and the same arrivals run once with no broadcast for the idle figure.
 * Measured: the achieved broadcast rate against the plan, the last send against the first
 * announced finishes_at, and how far transactional mail is booked ahead, idle and during.
 */
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { broadcastRate, planBroadcast, slotAt } from '@mailstack/core/domain/broadcasts/plan';
import { takeBroadcastSlot, takeSendSlot } from '@mailstack/core/table/send-line';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A seeded generator, so both runs see the same transactional arrivals. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_664_525 + 1_013_904_223) % 4_294_967_296;
  return seed / 4_294_967_296;
};

/** Poisson arrivals per second (Knuth), from a seeded generator. */
const poisson = (random: () => number, mean: number) => {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = random(); p > limit; p *= random()) k++;
  return k;
};

/** Shuffles in place (the order sends reach the line within a second is arbitrary). */
const shuffle = <T>(a: T[], random: () => number) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

export const benchBroadcastSimulated = async (
  base: Deps,
  options: { contacts: number; providerRate: number; transactional: number },
) => {
  const { contacts, providerRate: rate, transactional } = options;
  const region = `sim-${Date.now()}`;
  let now = 0;
  const deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: rate }, { clock: { now: () => now } });
  const start = Math.ceil(Date.now() / 1000) * 1000 + 10 * 86_400_000; // a quiet line, days ahead of the real clock
  const plan = planBroadcast({
    audience: contacts,
    providerRate: rate,
    now: start,
    requestedAt: start,
    busyUntil: 0,
    daily: null,
  });
  const announced = plan.finishesAt;
  const perSecond = broadcastRate(rate);

  /** Runs the line second by second; `broadcast` false for the idle run. Returns sends by second and transactional delays. */
  const run = async (broadcast: boolean, lineRegion: string) => {
    const random = seeded(42);
    const txDelays: number[] = [];
    let nextRecipient = 0;
    let waiting = 0; // broadcast sends refused their place, back next second
    let lastSend = 0;
    let firstSend = Number.POSITIVE_INFINITY;
    let sent = 0;
    const endAt = announced + 3_600_000;
    for (let second = start / 1000; second * 1000 <= endAt; second++) {
      now = second * 1000 + 500;
      let due = waiting;
      while (broadcast && nextRecipient < contacts && slotAt(plan, nextRecipient) < (second + 1) * 1000) {
        due++;
        nextRecipient++;
      }
      const arrivals = poisson(random, transactional);
      const attempts = shuffle(
        [...Array.from({ length: due }, () => 'b' as const), ...Array.from({ length: arrivals }, () => 't' as const)],
        random,
      );
      const outcomes = await Promise.all(
        attempts.map(async (kind) =>
          kind === 'b'
            ? { kind, ok: (await takeBroadcastSlot(deps, lineRegion, perSecond)) !== undefined }
            : { kind, booked: Math.floor((await takeSendSlot(deps, lineRegion)).at / 1000) - second },
        ),
      );
      waiting = 0;
      for (const o of outcomes) {
        if (o.kind === 't') txDelays.push((o as { booked: number }).booked);
        else if ((o as { ok: boolean }).ok) {
          sent++;
          lastSend = second * 1000;
          firstSend = Math.min(firstSend, second * 1000);
        } else waiting++;
      }
      if (broadcast && sent === contacts) break;
      if (!broadcast && second * 1000 >= announced) break;
    }
    return { sent, firstSend, lastSend, txDelays: txDelays.sort((a, b) => a - b) };
  };

  const t0 = performance.now();
  const idle = await run(false, `${region}-idle`);
  const busy = await run(true, region);
  const wallSeconds = (performance.now() - t0) / 1000;
  const achieved = (busy.sent - 1) / ((busy.lastSend - busy.firstSend) / 1000 + 1);
  const finishError = Math.abs(busy.lastSend - announced) / (announced - start);
  const share = (xs: number[]) => (xs.filter((d) => d > 0).length / xs.length) * 100;
  console.log(
    `broadcast simulated ${contacts.toLocaleString('en')} contacts at ${rate}/s under a simulated clock (real planner slots, real send line; ${((busy.lastSend - start) / 60_000).toFixed(1)} simulated min in ${wallSeconds.toFixed(0)} s): ${busy.sent.toLocaleString('en')} sent, ${achieved.toFixed(2)}/s against the planned ${perSecond}/s (${((achieved / perSecond) * 100).toFixed(1)}%); last send ${((busy.lastSend - announced) / 1000).toFixed(0)} s from the first finishes_at (${(finishError * 100).toFixed(3)}% of the planned duration; target 1%)`,
  );
  console.log(
    `  transactional (Poisson, ${transactional}/s) booked ahead of arrival: idle p50 ${pct(idle.txDelays, 50)} s, p99 ${pct(idle.txDelays, 99)} s (${share(idle.txDelays).toFixed(2)}% waited); during the broadcast p50 ${pct(busy.txDelays, 50)} s, p99 ${pct(busy.txDelays, 99)} s (${share(busy.txDelays).toFixed(2)}% waited; ${busy.txDelays.length.toLocaleString('en')} sends)`,
  );
};
