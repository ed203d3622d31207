import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The local inbox's web view. Each email's HTML is shown in an `<iframe sandbox srcdoc>` with
 * neither `allow-scripts` nor `allow-same-origin`: an email's script never runs, and the frame
 * is an opaque origin that cannot reach the inbox or its store. Everything else on the page is
 * text (`textContent`), never markup, and the page's own script carries a per-response nonce
 * under a Content-Security-Policy that allows nothing else.
 */
const page = (nonce: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mailstack: local inbox</title>
<style nonce="${nonce}">
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
  h1 { font-size: 1.2rem; }
  .email { border: 1px solid #ccc; border-radius: 6px; padding: .8rem 1rem; margin: 0 0 1rem; }
  .meta { color: #555; margin: .2rem 0; }
  .subject { font-weight: 600; font-size: 1rem; }
  iframe { width: 100%; height: 420px; border: 1px solid #ddd; background: #fff; }
  pre { white-space: pre-wrap; background: #f6f6f6; padding: .5rem; }
  button { margin-right: .5rem; }
</style>
</head>
<body>
<h1>Local inbox <button id="refresh">Refresh</button><button id="clear">Clear</button></h1>
<p class="meta">Every email the service handed to the provider. HTML bodies are shown sandboxed: no scripts run. JSON: <a href="/store">/store</a>.</p>
<div id="emails"></div>
<script nonce="${nonce}">
  const list = document.getElementById('emails');
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
  const render = (emails) => {
    list.replaceChildren();
    if (emails.length === 0) list.append(el('p', 'No email yet.', 'meta'));
    for (const m of [...emails].reverse()) {
      const box = el('div', undefined, 'email');
      box.append(el('div', m.subject, 'subject'));
      box.append(el('div', 'From: ' + m.from, 'meta'));
      box.append(el('div', 'To: ' + [].concat(m.destination?.to ?? []).join(', '), 'meta'));
      box.append(el('div', new Date((m.at ?? 0) * 1000).toISOString() + '  ' + (m.messageId ?? ''), 'meta'));
      if (m.body?.html) {
        const frame = document.createElement('iframe');
        frame.setAttribute('sandbox', '');
        frame.setAttribute('referrerpolicy', 'no-referrer');
        frame.srcdoc = m.body.html;
        box.append(frame);
      }
      if (m.body?.text) box.append(el('pre', m.body.text));
      // The headers and raw MIME the stand-in kept, as text, each under its button.
      const section = (name, label, text) => {
        const pre = el('pre', text);
        pre.id = (m.messageId ?? '') + '-' + name;
        pre.hidden = true;
        const button = el('button', label);
        button.dataset.toggle = pre.id;
        button.addEventListener('click', () => { pre.hidden = !pre.hidden; });
        box.append(button, pre);
      };
      if (m.headers?.length) section('headers', 'Toggle headers', m.headers.map((h) => h.name + ': ' + h.value).join('\\n'));
      if (m.raw) section('raw', 'Toggle raw MIME', m.raw);
      for (const a of m.attachments ?? []) box.append(el('div', 'Attachment: ' + (a.filename ?? '(unnamed)') + ' (' + (a.contentType ?? '') + ')', 'meta'));
      list.append(box);
    }
  };
  const load = () => fetch('/store').then((r) => r.json()).then((s) => render(s.emails ?? [])).catch((e) => { list.replaceChildren(el('p', 'Could not read the store: ' + e.message)); });
  document.getElementById('refresh').addEventListener('click', load);
  document.getElementById('clear').addEventListener('click', () => fetch('/clear-store', { method: 'POST' }).then(load));
  load();
</script>
</body>
</html>`;

/** The headers of the inbox page: only its own nonce-bearing script and style, frames from srcdoc only. */
const inboxPageHeaders = (nonce: string): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
});

/**
 * Serves the safe inbox page at `GET /` of the embedded inbox server in place of its own view
 * (which writes an email's HTML into a same-origin frame); every other path stays the engine's.
 */
export const installInboxPage = (inbox: Server): void => {
  const engine = inbox.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  inbox.removeAllListeners('request');
  inbox.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      const nonce = randomBytes(16).toString('base64');
      res.writeHead(200, inboxPageHeaders(nonce));
      res.end(page(nonce));
      return;
    }
    for (const listener of engine) listener.call(inbox, req, res);
  });
};
