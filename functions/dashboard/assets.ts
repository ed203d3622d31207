/** The dashboard's one stylesheet (served at /assets/style.css). */
export const STYLE = `
:root { --fg: #1a1d21; --muted: #4d5560; --line: #d8dde3; --bg: #f6f7f9; --card: #fff; --accent: #1f4fd1; --accent-fg: #fff; --ok: #146c2e; --warn: #8a4b00; --bad: #a4161a; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.5; }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 9; }
header.top { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; padding: 10px 20px; background: #14213d; color: #fff; }
header.top a, header.top .brand { color: #fff; font-weight: 600; text-decoration: none; }
header.top .who { margin-left: auto; font-size: .9rem; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
header.top button { background: transparent; color: #fff; border: 1px solid #8a96ad; }
header.top select { max-width: 14rem; }
.shell { display: grid; grid-template-columns: 200px 1fr; min-height: calc(100vh - 52px); }
nav.side { background: var(--card); border-right: 1px solid var(--line); padding: 16px 0; }
nav.side ul { list-style: none; margin: 0; padding: 0; }
nav.side a { display: block; padding: 6px 20px; color: var(--fg); text-decoration: none; }
nav.side a[aria-current="page"] { background: #e7ecfb; color: var(--accent); font-weight: 600; border-left: 3px solid var(--accent); }
main { padding: 20px 28px; max-width: 1100px; min-width: 0; overflow-wrap: break-word; }
h1 { font-size: 1.5rem; margin: 0 0 16px; overflow-wrap: anywhere; } h2 { font-size: 1.15rem; margin: 24px 0 8px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
.card > :first-child { margin-top: 0; } .card > :last-child { margin-bottom: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0 0; } dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; }
.stat b { display: block; font-size: 1.5rem; } .stat span { color: var(--muted); font-size: .9rem; }
table { width: 100%; border-collapse: collapse; background: var(--card); font-size: .93rem; }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
td code { overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; background: #fafbfc; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; margin-bottom: 16px; }
.table-wrap:focus-visible { outline: 2px solid currentColor; outline-offset: 2px; }
form.inline { display: inline; }
form.row { display: flex; gap: 8px; flex-wrap: wrap; align-items: flex-end; margin-bottom: 16px; }
label { display: flex; flex-direction: column; font-size: .9rem; color: var(--muted); gap: 2px; }
label.check { flex-direction: row; align-items: center; gap: 6px; color: var(--fg); }
input, select, textarea { font: inherit; padding: 6px 8px; border: 1px solid #8c96a3; border-radius: 6px; background: #fff; color: var(--fg); }
button, .button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.notice { padding: 10px 14px; border-radius: 6px; margin-bottom: 16px; background: #e6f4ea; border: 1px solid #9bcfac; color: var(--ok); }
.error { padding: 10px 14px; border-radius: 6px; margin-bottom: 16px; background: #fdecea; border: 1px solid #f1a7a3; color: var(--bad); }
.badge { white-space: nowrap; display: inline-block; padding: 0 8px; border-radius: 10px; font-size: .8rem; background: #e9ecef; color: var(--fg); }
.badge.delivered, .badge.verified, .badge.active { background: #dff3e4; color: var(--ok); }
.badge.bounced, .badge.failed, .badge.complained, .badge.revoked, .badge.expired { background: #fbe3e4; color: var(--bad); }
.badge.pending, .badge.queued, .badge.not_started, .badge.scheduled { background: #fff1d6; color: var(--warn); }
.badge.published, .badge.sent, .badge.opened, .badge.clicked { background: #dff3e4; color: var(--ok); }
.badge.sending { background: #e7ecfb; color: var(--accent); }
.badge.canceled { background: #fbe3e4; color: var(--bad); }
.badge.draft { background: #e9ecef; color: var(--muted); }
.field { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
form.stack .field > input, form.stack .field > select, form.editor .field > input, form.editor .field > textarea { width: 100%; }
form.stack { display: flex; flex-direction: column; gap: 12px; max-width: 720px; margin-bottom: 16px; }
.split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 24px; align-items: start; }
.split .preview-pane h2 { margin-top: 24px; }
form.editor { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 24px; align-items: start; }
form.editor .fields { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
form.editor .preview-pane { position: sticky; top: 12px; min-width: 0; } form.editor .preview-pane h2 { margin-top: 0; }
form.editor iframe.preview { height: 560px; }
textarea.code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 0; min-width: 0; } legend { padding: 0 4px; color: var(--fg); font-weight: 600; }
table.variables input, table.variables select { width: 100%; min-width: 4.5rem; }
.actions { display: flex; gap: 8px; flex-wrap: wrap; margin: 8px 0 16px; }
input.wide { width: min(24rem, 100%); }
progress { width: 100%; height: 18px; accent-color: var(--accent); }
.big { font-size: 1.25rem; margin: 4px 0; }
ul.facts { margin: 4px 0 12px; padding-left: 20px; } ul.facts li { margin: 2px 0; }
h3 { font-size: 1rem; margin: 16px 0 6px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
pre.message-text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 240px; overflow: auto; padding: 8px; border: 1px solid #d0d7de; border-radius: 6px; background: transparent; color: inherit; }
pre { background: #0f1720; color: #e6edf3; padding: 12px; border-radius: 6px; overflow: auto; max-height: 480px; }
.secret { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; } .secret code { background: #fff7d6; padding: 6px 8px; border: 1px solid #e5c55c; border-radius: 6px; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
iframe.preview { width: 100%; height: 420px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.chart { width: 100%; height: auto; } .ratebar { display: block; width: 100%; height: 22px; margin-top: 8px; } .chart text { font-size: 11px; fill: var(--muted); }
ol.timeline { list-style: none; padding: 0; border-left: 2px solid var(--line); margin-left: 6px; } ol.timeline li { padding: 2px 0 8px 14px; position: relative; }
ol.timeline li::before { content: ""; position: absolute; left: -6px; top: 8px; width: 10px; height: 10px; border-radius: 50%; background: var(--accent); }
ol.timeline li p { margin: 0 0 2px; } ol.timeline li dl { margin: 2px 0 4px; font-size: .9rem; } ol.timeline li code { overflow-wrap: anywhere; }
.ev-type { color: var(--muted); font-size: .75rem; }
.ev-outcome { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: .75rem; font-weight: 600; background: #e9ecef; color: var(--fg); }
ol.timeline li.good::before { background: var(--ok); } ol.timeline li.good .ev-outcome { background: #dff3e4; color: var(--ok); }
ol.timeline li.problem::before { background: var(--bad); } ol.timeline li.problem .ev-outcome { background: #fbe3e4; color: var(--bad); }
ol.timeline li.waiting::before { background: var(--warn); } ol.timeline li.waiting .ev-outcome { background: #fff1d6; color: var(--warn); }
ol.timeline li.note::before { background: var(--muted); }
.wait-reason { padding: 8px 12px; border-radius: 6px; background: #fff8e6; border: 1px solid #e8c77a; }
ul.tags { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 4px 8px; }
main.shared { max-width: 900px; margin: 24px auto; }
.auth { max-width: 420px; margin: 8vh auto; } .auth form { display: flex; flex-direction: column; gap: 12px; }
.pager { display: flex; gap: 12px; }
fieldset.events { background: var(--card); } .event-groups { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 10px; margin-top: 8px; align-items: start; }
fieldset.event-group ul { list-style: none; margin: 4px 0 0; padding: 0; } fieldset.event-group code { overflow-wrap: anywhere; }
label.check.all, label.check.group { font-weight: 600; }
h2.message-head { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; font-size: 1rem; margin: 0 0 4px; overflow-wrap: anywhere; }
article.message iframe.preview { height: 320px; margin-top: 8px; }
.flow-wrap { overflow-x: auto; padding: 4px 0 12px; }
ul.flow, ul.branches { list-style: none; margin: 0; padding: 0; }
ul.flow { display: flex; flex-direction: column; align-items: center; }
ul.flow > li + li::before { content: ""; display: block; width: 2px; height: 18px; margin: 0 auto; background: #8c96a3; }
ul.branches { display: flex; gap: 16px; justify-content: center; align-items: flex-start; }
li.branch { display: flex; flex-direction: column; align-items: center; border-top: 2px solid #8c96a3; padding-top: 6px; min-width: 0; }
.branch-label { font-size: .8rem; font-weight: 600; color: var(--muted); background: var(--bg); padding: 0 6px; margin-bottom: 4px; }
.step-box { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 8px; padding: 8px 12px; width: max-content; max-width: 18rem; display: flex; flex-direction: column; gap: 2px; }
.step-box.trigger { border-left-color: var(--ok); } .step-box.condition, .step-box.wait_for_event { border-left-color: var(--warn); } .step-box.contact_delete { border-left-color: var(--bad); }
.step-box .step-type { font-weight: 600; } .step-box .step-does { font-size: .9rem; } .step-box .step-counts { font-size: .8rem; color: var(--muted); }
code.step-key, table.stacks td code.step-key { overflow-wrap: normal; word-break: keep-all; hyphens: none; }
.step-box .step-does, .step-box .step-type { overflow-wrap: normal; word-break: normal; hyphens: none; }
.error-text { color: var(--bad); }
.badge.completed, .badge.success, .badge.enabled { background: #dff3e4; color: var(--ok); } .badge.running, .badge.waiting, .badge.attempting { background: #e7ecfb; color: var(--accent); }
li.flow-end { color: var(--muted); font-size: .85rem; } li.flow-end::before, li.flow-step::before { margin-bottom: 2px; }
@media (max-width: 720px) {
  .shell { grid-template-columns: 1fr; grid-template-rows: auto 1fr; }
  nav.side { border-right: 0; border-bottom: 1px solid var(--line); padding: 4px 0; overflow-x: auto; }
  nav.side ul { display: flex; white-space: nowrap; }
  nav.side a { padding: 6px 12px; } nav.side a[aria-current="page"] { border-left: 0; border-bottom: 3px solid var(--accent); }
  main { padding: 14px; }
  /* Tables become one card per row, each value beside its column's name (labels set by the script). */
  table.stacks thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  table.stacks, table.stacks tbody, table.stacks tr { display: block; width: 100%; }
  table.stacks tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
  table.stacks td { display: grid; grid-template-columns: 7rem minmax(0, 1fr); justify-items: start; gap: 8px; border: 0; padding: 3px 10px; overflow-wrap: anywhere; }
  table.stacks td::before { content: attr(data-label); color: var(--muted); overflow-wrap: normal; }
  table.stacks td:not([data-label=""]) > * { grid-column: 2; }
  table.stacks td[data-label=""] { grid-template-columns: minmax(0, 1fr); }
  table.stacks td[data-label=""]::before { content: none; }
  form.editor, .split { grid-template-columns: 1fr; } form.editor .preview-pane { position: static; }
  .hide-narrow { display: none; }
}
`;

/**
 * The dashboard's one script (served at /assets/app.js; the CSP allows no inline script):
 * copy buttons, the team switcher's navigation, times in the reader's own zone, the template
 * editor's preview as one types, and a running broadcast's progress refreshed in place.
 * Everything works without it.
 */
export const SCRIPT = `
document.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-copy]');
  if (!b) return;
  navigator.clipboard.writeText(b.getAttribute('data-copy')).then(() => { b.textContent = 'Copied'; setTimeout(() => { b.textContent = 'Copy'; }, 1500); });
});
document.addEventListener('change', (e) => {
  if (e.target.matches('select[data-navigate]')) location.href = e.target.value;
});
for (const b of document.querySelectorAll('button[data-copy]')) b.hidden = false;
// A webhook's event picker: "all events" and each group's box tick what they stand for; unticking one event unticks them.
document.addEventListener('change', (e) => {
  const box = e.target;
  const picker = box.closest && box.closest('[data-events]');
  if (!picker || box.type !== 'checkbox') return;
  const kind = box.getAttribute('data-check');
  const group = box.getAttribute('data-group');
  const boxes = [...picker.querySelectorAll('input[type=checkbox]')];
  if (kind === 'all') for (const b of boxes) b.checked = box.checked;
  else if (kind === 'group') for (const b of boxes) { if (b.getAttribute('data-group') === group) b.checked = box.checked; }
  const events = boxes.filter((b) => !b.hasAttribute('data-check'));
  for (const g of boxes.filter((b) => b.getAttribute('data-check') === 'group'))
    g.checked = events.filter((b) => b.getAttribute('data-group') === g.getAttribute('data-group')).every((b) => b.checked);
  const all = boxes.find((b) => b.getAttribute('data-check') === 'all');
  if (all) all.checked = events.every((b) => b.checked);
});
// On a narrow screen a table shows one card per row: each cell carries its column's name, and the
// roles keep the table's meaning for screen readers once CSS lays it out as blocks.
for (const table of document.querySelectorAll('.table-wrap > table:not(.variables)')) {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
  table.setAttribute('role', 'table');
  for (const group of table.querySelectorAll('thead, tbody')) group.setAttribute('role', 'rowgroup');
  for (const row of table.querySelectorAll('tr')) row.setAttribute('role', 'row');
  for (const th of table.querySelectorAll('thead th')) th.setAttribute('role', 'columnheader');
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, i) => {
      cell.setAttribute('role', cell.tagName === 'TH' ? 'rowheader' : 'cell');
      cell.setAttribute('data-label', heads[i] ?? '');
    });
  }
  table.classList.add('stacks');
}
const localize = (root) => {
  for (const t of root.querySelectorAll('time[data-local]')) {
    const d = new Date(t.getAttribute('datetime'));
    if (Number.isNaN(d.getTime())) continue;
    t.title = t.textContent;
    t.textContent = d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  }
};
localize(document);
for (const form of document.querySelectorAll('form[data-live-preview]')) {
  const trigger = form.querySelector('[data-preview]');
  let timer;
  form.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => form.requestSubmit(trigger), 500); });
  const frame = form.querySelector('iframe[name]');
  if (frame && !frame.getAttribute('src') && form.elements.html && form.elements.html.value) form.requestSubmit(trigger);
}
const refresh = () => {
  const el = document.getElementById('progress');
  if (!el || !el.hasAttribute('data-refresh')) return;
  setTimeout(async () => {
    try {
      const res = await fetch(location.pathname, { credentials: 'same-origin' });
      const next = res.ok ? new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('progress') : null;
      if (next) { el.replaceWith(next); localize(next); }
    } catch {}
    refresh();
  }, Number(el.getAttribute('data-refresh')) * 1000);
};
refresh();
`;
