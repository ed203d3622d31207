import type { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { getUsage } from '@mailstack/core/domain/usage/get-usage';
import { dailyOutcomes, LINES, windowRates, WINDOW_DAYS } from '@mailstack/core/domain/deliverability/guardrail';
import type { DashboardEnv } from '../app.ts';
import { teamPage } from '../view.ts';

const pct = (n: number) => `${(n * 100).toFixed(n > 0 && n < 0.01 ? 2 : 1)}%`;

/** The last 30 days of sends as a bar chart, drawn on the server (SVG, no script). */
const sendsChart = (days: readonly { day: string; sent: number; bounced: number }[]) => {
  const w = 720,
    h = 200,
    left = 40,
    bottom = 24,
    top = 10;
  const max = Math.max(1, ...days.map((d) => d.sent));
  const bw = (w - left) / days.length;
  const y = (v: number) => top + (h - top - bottom) * (1 - v / max);
  const bars = days.map(
    (d, i) =>
      html`<rect x="${(left + i * bw + 1).toFixed(1)}" y="${y(d.sent).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${(h - bottom - y(d.sent)).toFixed(1)}" fill="#1f4fd1"><title>${d.day}: ${d.sent} sent, ${d.bounced} bounced</title></rect>`,
  );
  const labels = days
    .filter((_, i) => i % 5 === 0 || i === days.length - 1)
    .map((d) => {
      const i = days.indexOf(d);
      return html`<text x="${(left + i * bw + bw / 2).toFixed(1)}" y="${h - 6}" text-anchor="${i === days.length - 1 ? 'end' : 'middle'}">${d.day.slice(5)}</text>`;
    });
  const total = days.reduce((n, d) => n + d.sent, 0);
  return html`<svg class="chart" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="chart-title"><title id="chart-title">Emails sent per day over the last ${days.length} days: ${total} in all, at most ${max} in a day</title>
<line x1="${left}" y1="${h - bottom}" x2="${w}" y2="${h - bottom}" stroke="#8c96a3"/><text x="0" y="${top + 8}">${max}</text><text x="0" y="${h - bottom}">0</text>${bars}${labels}</svg>`;
};

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

export const registerOverview = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/', async (c) => {
    const deps = c.get('deps');
    const { team } = c.get('actor');
    const [usage, days, rates] = await Promise.all([
      getUsage(deps, team),
      dailyOutcomes(deps, team.id),
      windowRates(deps, team.id),
    ]);
    const limit = usage.limits
      ? 'emails_per_day' in usage.limits
        ? `${usage.limits.emails_per_day} a day`
        : `${usage.limits.emails_per_month} a month`
      : 'no plan cap (self-hosted)';
    return c.html(
      teamPage(
        c.get('ctx'),
        'Overview',
        html`
<div class="grid"><div class="card stat"><b>${usage.today.emails_sent}</b><span>emails today</span></div>
${usage.period ? html`<div class="card stat"><b>${usage.period.emails_sent}</b><span>this month of ${usage.period.included}</span></div>` : ''}
<div class="card stat"><b>${usage.plan ?? 'self-hosted'}</b><span>plan: ${limit}</span></div>
<div class="card stat"><b>${team.status}</b><span>${team.sendingPaused ? raw('sending <strong>paused</strong> by the guardrail') : 'sending allowed'}</span></div></div>
<h2>Sends, last 30 days</h2><div class="card">${sendsChart(days)}</div>
<h2>Deliverability</h2>${rateBar('Bounce rate', rates.bounce_rate, LINES.bounce_rate)}${rateBar('Complaint rate', rates.complaint_rate, LINES.complaint_rate)}
<p class="muted">${rates.sent} emails counted over the last ${WINDOW_DAYS} days; the lines apply from 100.</p>`,
      ),
    );
  });
};
