import { html } from 'hono/html';

/** One UTC day of the overview's charts (from the email metrics, GET /emails/metrics' use case). */
export interface ChartDay {
  readonly day: string;
  readonly sent: number;
  readonly delivered: number;
  readonly bounced: number;
  readonly complained: number;
  readonly opened: number;
  readonly clicked: number;
  readonly delivery_rate: number;
  readonly bounce_rate: number;
  readonly complaint_rate: number;
}

const W = 720;
const H = 220;
const LEFT = 44;
const BOTTOM = 24;
const TOP = 30;

const VOLUME = [
  ['sent', 'Sent', '#1f4fd1'],
  ['delivered', 'Delivered', '#146c2e'],
  ['opened', 'Opened', '#8a4b00'],
  ['clicked', 'Clicked', '#6f42c1'],
] as const;
const RATES = [
  ['bounce_rate', 'Bounce rate', '#a4161a'],
  ['complaint_rate', 'Complaint rate', '#1f4fd1'],
] as const;

const legend = (series: readonly (readonly [string, string, string])[]) =>
  series.map(
    ([, label, colour], i) =>
      html`<rect x="${LEFT + i * 130}" y="4" width="12" height="12" fill="${colour}"/><text x="${LEFT + i * 130 + 16}" y="14">${label}</text>`,
  );

/** Day labels under the axis: about six, always the last. */
const dayLabels = (days: readonly ChartDay[], step: number) => {
  const every = Math.max(1, Math.round(days.length / 6));
  return days.flatMap((d, i) =>
    i % every === 0 || i === days.length - 1
      ? [
          html`<text x="${(LEFT + i * step + step / 2).toFixed(1)}" y="${H - 6}" text-anchor="${i === days.length - 1 ? 'end' : 'middle'}">${d.day.slice(5)}</text>`,
        ]
      : [],
  );
};

const axis = (top: string) =>
  html`<line x1="${LEFT}" y1="${H - BOTTOM}" x2="${W}" y2="${H - BOTTOM}" stroke="#8c96a3"/><text x="0" y="${TOP + 8}">${top}</text><text x="0" y="${H - BOTTOM}">0</text>`;

/** Sent, delivered, opened and clicked per day as grouped bars (SVG drawn on the server, no script). */
export const volumeChart = (days: readonly ChartDay[]) => {
  const max = Math.max(1, ...days.map((d) => Math.max(d.sent, d.delivered, d.opened, d.clicked)));
  const step = (W - LEFT) / days.length;
  const bar = Math.max(1, (step - 2) / VOLUME.length);
  const y = (v: number) => TOP + (H - TOP - BOTTOM) * (1 - v / max);
  const bars = days.flatMap((d, i) =>
    VOLUME.map(
      ([key, label, colour], j) =>
        html`<rect x="${(LEFT + i * step + 1 + j * bar).toFixed(1)}" y="${y(d[key]).toFixed(1)}" width="${bar.toFixed(1)}" height="${(H - BOTTOM - y(d[key])).toFixed(1)}" fill="${colour}"><title>${d.day}: ${d[key]} ${label.toLowerCase()}</title></rect>`,
    ),
  );
  const sum = (k: (typeof VOLUME)[number][0]) => days.reduce((n, d) => n + d[k], 0);
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="volume-title"><title id="volume-title">Emails per UTC day over the last ${days.length} days: ${sum('sent')} sent, ${sum('delivered')} delivered, ${sum('opened')} opened, ${sum('clicked')} clicked; at most ${max} in a day (the table below has every day's figures)</title>
${legend(VOLUME)}${axis(String(max))}${bars}${dayLabels(days, step)}</svg>`;
};

/** Each day's bounce and complaint rates (percent) as lines with a dot per day. */
export const ratesChart = (days: readonly ChartDay[]) => {
  const max = Math.max(1, ...days.map((d) => Math.max(d.bounce_rate, d.complaint_rate)));
  const step = (W - LEFT) / days.length;
  const x = (i: number) => LEFT + i * step + step / 2;
  const y = (v: number) => TOP + (H - TOP - BOTTOM) * (1 - v / max);
  const lines = RATES.map(([key, label, colour]) => {
    const points = days.map((d, i) => `${x(i).toFixed(1)},${y(d[key]).toFixed(1)}`).join(' ');
    return html`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>${days.map((d, i) => html`<circle cx="${x(i).toFixed(1)}" cy="${y(d[key]).toFixed(1)}" r="3" fill="${colour}"><title>${d.day}: ${label.toLowerCase()} ${d[key]}%</title></circle>`)}`;
  });
  const worst = (k: (typeof RATES)[number][0]) => Math.max(0, ...days.map((d) => d[k]));
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="rates-title"><title id="rates-title">Bounce and complaint rates per UTC day over the last ${days.length} days: bounce rate at most ${worst('bounce_rate')}%, complaint rate at most ${worst('complaint_rate')}% (the table below has every day's figures)</title>
${legend(RATES)}${axis(`${max}%`)}${lines}${dayLabels(days, step)}</svg>`;
};

/** The charts' figures, a row per day (their text alternative). */
export const figuresTable = (days: readonly ChartDay[]) =>
  html`<details><summary>The figures, day by day</summary><div class="table-wrap" tabindex="0"><table><caption>Emails per UTC day</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Sent</th><th scope="col">Delivered</th><th scope="col">Bounced</th><th scope="col">Complained</th><th scope="col">Opened</th><th scope="col">Clicked</th><th scope="col">Bounce rate</th><th scope="col">Complaint rate</th></tr></thead>
<tbody>${[...days].reverse().map((d) => html`<tr><td>${d.day}</td><td>${d.sent}</td><td>${d.delivered}</td><td>${d.bounced}</td><td>${d.complained}</td><td>${d.opened}</td><td>${d.clicked}</td><td>${d.bounce_rate}%</td><td>${d.complaint_rate}%</td></tr>`)}</tbody></table></div></details>`;
