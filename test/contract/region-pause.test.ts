import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { broadcastPauseFor } from '@mailstack/core/domain/broadcasts/send-broadcast';
import { pauseBroadcasts } from '@mailstack/core/domain/broadcasts/pause-broadcasts';
import { resumeBroadcasts } from '@mailstack/core/domain/broadcasts/resume-broadcasts';
import { regionDayCounts, regionRates } from '@mailstack/core/domain/deliverability/guardrail';
import { getItem, updateItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { waitFor } from '../support/wait.ts';

const today = () => new Date().toISOString().slice(0, 10);
const regionDay = async (region: string) =>
  regionDayCounts(testDeps(), region, today()) as Promise<Record<string, number>>;
const addToRegion = (region: string, counts: Record<string, number>) =>
  updateItem(testDeps(), keys.deliverability.regionDay(region, today(), 0), { add: counts });

describe("a delivery region's platform rate", () => {
  it("counts every team's sent and bounced mail in the region it was sent from", async () => {
    // Prepare: the test host's one region, which other tests send from too (so at least, not exactly).
    const t = await sendingTeam();
    const region = 'us-east-1';
    const before = await regionDay(region);
    const grew = (d: Record<string, any>, field: string) => Number(d[field] ?? 0) - Number(before[field] ?? 0);

    // Act
    for (const to of ['delivered@resend.dev', 'bounced@resend.dev']) {
      expect((await t.resend.emails.send({ from: t.from, to, subject: 'Region count', text: 'x' })).error).toBeNull();
    }

    // Assess
    const after = await waitFor(
      () => regionDay(region),
      (d) => grew(d, 'sent') >= 2 && grew(d, 'bounced') >= 1,
      { what: `the ${region} day counting 2 more sent and 1 more bounced`, everyMs: 200 },
    );
    expect(grew(after, 'sent')).toBeGreaterThanOrEqual(2);
    expect(grew(after, 'bounced')).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("holds a region pause of broadcasts while the region's bounce rate is over the risk line, and clears it on its own once the rate recovers", async () => {
    // Prepare: a region of its own whose platform bounce rate is 20%, paused until it recovers.
    const deps = testDeps();
    const region = `test-${randomUUID()}`;
    const teamId = randomUUID();
    await addToRegion(region, { sent: 100_000, bounced: 20_000 });
    await pauseBroadcasts(deps, 'region', region, { untilRecovered: true, reason: 'platform bounce rate' });
    try {
      // Act and assess: the pause holds while the rate is high, on every read.
      expect((await regionRates(deps, region)).bounce_rate).toBeCloseTo(0.2);
      expect(await broadcastPauseFor(deps, teamId, region)).toMatchObject({
        scope: 'region',
        target: region,
        untilRecovered: true,
      });
      expect(await broadcastPauseFor(deps, teamId, region)).toMatchObject({ scope: 'region' });

      // Act: the region recovers (about 0.2% over the window).
      await addToRegion(region, { sent: 10_000_000 });

      // Assess: no pause any more, and it is gone from the table.
      expect(await broadcastPauseFor(deps, teamId, region)).toBeUndefined();
      expect(await getItem(deps, keys.broadcast.pauseRegion(region))).toBeUndefined();
    } finally {
      await resumeBroadcasts(deps, 'region', region);
    }
  });

  it('leaves a region pause with an end time, or a team pause, to their own end whatever the rate', async () => {
    // Prepare: a healthy region (nothing sent there).
    const deps = testDeps();
    const region = `test-${randomUUID()}`;
    const teamId = randomUUID();
    await pauseBroadcasts(deps, 'region', region, { until: Date.now() + 60_000 });
    await pauseBroadcasts(deps, 'team', teamId, { reason: 'review' });
    try {
      // Assess: the team's pause comes first; once lifted, the timed region pause still holds.
      expect(await broadcastPauseFor(deps, teamId, region)).toMatchObject({ scope: 'team' });
      await resumeBroadcasts(deps, 'team', teamId);
      expect(await broadcastPauseFor(deps, teamId, region)).toMatchObject({ scope: 'region', untilRecovered: false });
    } finally {
      await resumeBroadcasts(deps, 'region', region);
    }
  });
});
