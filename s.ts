import { Resend } from 'resend';
const calls: string[] = [];
globalThis.fetch = (async (input: any, init: any) => { calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`); return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }); }) as any;
const r: any = new Resend('re_123', { baseUrl: 'http://h' } as any);
const walk = (obj: any, prefix: string, seen: Set<any>, out: string[]) => {
  if (!obj || typeof obj !== 'object' || seen.has(obj)) return; seen.add(obj);
  let proto = Object.getPrototypeOf(obj);
  const names = new Set<string>();
  while (proto && proto !== Object.prototype) { for (const n of Object.getOwnPropertyNames(proto)) if (n !== 'constructor' && typeof obj[n] === 'function') names.add(n); proto = Object.getPrototypeOf(proto); }
  for (const n of names) out.push(`${prefix}${n}`);
  for (const [k, v] of Object.entries(obj)) if (k !== 'resend' && v && typeof v === 'object' && !(v instanceof Headers)) walk(v, `${prefix}${k}.`, seen, out);
};
const out: string[] = []; walk(r, '', new Set(), out);
const ARG: any = new Proxy({}, { get: (_t, p) => (p === 'then' ? undefined : p === Symbol.toPrimitive ? () => 'x1' : typeof p === 'string' ? 'x1' : undefined) });
for (const m of out) {
  const path = m.split('.'); const fn = path.pop()!; const target = path.reduce((o, k) => o[k], r);
  calls.length = 0; let err = '';
  for (const arg of [{ id: 'x1', email: 'a@b.c', audienceId: 'x1', contactId: 'x1', segmentId: 'x1', name: 'n', from: 'a@b.c', to: 'a@b.c', subject: 's', text: 't', type: 'sent', scheduledAt: 'x', webhookId: 'x1', eventId: 'x1', emailId: 'x1', inboxId: 'x1', threadId: 'x1', draftId: 'x1' }, 'x1']) {
    try { await target[fn](arg, arg, arg); } catch (e: any) { err = e.message.slice(0, 60); }
    if (calls.length) break;
  }
  console.log(m.padEnd(40), calls.join(', ') || `-- ${err}`);
}
