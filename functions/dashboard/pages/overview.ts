import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { getUsage } from '@mailstack/core/domain/usage/get-usage';
import { deliverabilityLines, windowRates, WINDOW_DAYS } from '@mailstack/core/domain/deliverability/guardrail';
import { emailMetrics } from '@mailstack/core/domain/metrics/email-metrics';
import { parkedLines, type ParkedLine } from '@mailstack/core/domain/emails/pipeline/provider-line';
import type { DashboardEnv } from '../app.ts';
import { teamPage } from '../view.ts';
import { figuresTable, ratesChart, volumeChart, type ChartDay } from './overview-charts.ts';

/** The chart ranges the overview offers (`?days=`), in days. */
const RANGES = [7, 30] as const;

/** The team's emails per UTC day over the last `days` days, today included, from the email metrics. */
const chartDays = async (deps: Parameters<typeof emailMetrics>[0], teamId: string, days: number) => {
  const m = await emailMetrics(deps, teamId, {
    start_date: new Date(deps.clock.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10),
    timezone: 'UTC',
    granularity: 'daily',
    dimensions: ['period'],
    metrics: [
      'sent',
      'delivered',
      'bounced',
      'complained',
      'opened',
      'clicked',
      'delivery_rate',
      'bounce_rate',
      'complaint_rate',
    ],
  });
  return (m.data ?? []).map((r) => ({ day: r.period!.slice(0, 10), ...r }) as ChartDay);
};

const pct = (n: number) => `${(n * 100).toFixed(n > 0 && n < 0.01 ? 2 : 1)}%`;

/** A rate against its warning and pause lines, as a bar. */
const rateBar = (label: string, rate: number, lines: { warning: number; pause: number }) => {
  const scale = lines.pause * 1.5;
  const x = (v: number) => Math.min(100, (v / scale) * 100);
  const state =
    rate >= lines.pause ? 'over the pause line' : rate >= lines.warning ? 'over the warning line' : 'under the lines';
  return html`<div class="card"><strong>${label}: ${pct(rate)}</strong> <span class="muted">(${state}; warning ${pct(lines.warning)}, pause ${pct(lines.pause)}, last ${WINDOW_DAYS} days)</span>
<svg class="ratebar" viewBox="0 0 100 12" preserveAspectRatio="none" role="img" aria-label="${label} ${pct(rate)} against a warning line at ${pct(lines.warning)} and a pause line at ${pct(lines.pause)}">
<rect x="0" y="3" width="100" height="6" fill="#e9ecef"/><rect x="0" y="3" width="${x(rate).toFixed(2)}" height="6" fill="${rate >= lines.warning ? '#a4161a' : '#146c2e'}"/>
<line x1="${x(lines.warning)}" y1="0" x2="${x(lines.warning)}" y2="12" stroke="#8a4b00" stroke-width="0.6"/><line x1="${x(lines.pause)}" y1="0" x2="${x(lines.pause)}" y2="12" stroke="#a4161a" stroke-width="0.6"/></svg></div>`;
};

/** What each parked state means, for the banner. */
const PARKED: Record<ParkedLine['reason'], string> = {
  sending_paused: "SES paused the account's sending",
  sending_disabled: "the account's sending is disabled in SES",
  quota_exhausted: "the SES account's 24-hour quota is spent",
  account_suspended: 'the SES account is suspended',
  configuration: "SES refuses the stack's configuration set",
  access_denied: "SES refuses the service's permissions",
};

/** A banner per region whose send line is parked (docs/sending.md, SES states): nothing fails, mail waits. */
const parkedBanner = (lines: readonly ParkedLine[]) =>
  lines.map(
    (p) =>
      html`<p class="notice" role="alert">Sending is parked in ${p.region} since ${p.since}: ${PARKED[p.reason]}. Emails wait, queued, and go out by themselves once SES allows it.</p>`,
  );

export const registerOverview = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/', async (c) => {
    const deps = c.get('deps');
    const { team } = c.get('actor');
    const range = RANGES.find((r) => String(r) === c.req.query('days')) ?? 30;
    const [usage, days, rates, parked] = await Promise.all([
      getUsage(deps, team),
      chartDays(deps, team.id, range),
      windowRates(deps, team.id),
      parkedLines(deps),
    ]);
    const lines = deliverabilityLines(deps.config);
    const limit = usage.limits
      ? 'emails_per_day' in usage.limits
        ? `${usage.limits.emails_per_day} a day`
        : `${usage.limits.emails_per_month} a month`
      : 'no plan cap (self-hosted)';
    return c.html(
      teamPage(
        c.get('ctx'),
        'Overview',
        html`${parkedBanner(parked)}
<div class="grid"><div class="card stat"><b>${usage.today.emails_sent}</b><span>emails today</span></div>
${usage.period ? html`<div class="card stat"><b>${usage.period.emails_sent}</b><span>this month of ${usage.period.included}</span></div>` : ''}
<div class="card stat"><b>${usage.plan ?? 'self-hosted'}</b><span>plan: ${limit}</span></div>
<div class="card stat"><b>${team.status}</b><span>${team.sendingPaused ? raw('sending <strong>paused</strong> by the guardrail') : 'sending allowed'}</span></div></div>
<h2>Emails, last ${range} days</h2>
<p>Show: ${RANGES.map((r, i) => html`${i ? ' · ' : ''}<a href="?days=${r}"${r === range ? raw(' aria-current="true"') : ''}>${r} days</a>`)}</p>
<div class="card">${volumeChart(days)}</div>
<h2 id="deliverability">Deliverability</h2><div class="card">${ratesChart(days)}</div>${figuresTable(days)}
${rateBar('Bounce rate', rates.bounce_rate, lines.bounce_rate)}${rateBar('Complaint rate', rates.complaint_rate, lines.complaint_rate)}
<p class="muted">${rates.sent} emails counted over the last ${WINDOW_DAYS} days; the lines apply from ${deps.config.DELIVERABILITY_MIN_SENT}.</p>`,
      ),
    );
  });
};
