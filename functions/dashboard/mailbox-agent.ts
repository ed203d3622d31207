import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '@mailstack/core/runtime/deps';
import { MAILBOX_MAX_REQUEST_BYTES, TOO_LARGE_DRAIN_FACTOR, TOO_LARGE_UPLOAD_IDLE_MS } from '@mailstack/core/limits';
import { internalErrorResponse } from '@mailstack/core/http/respond';
import { MailboxAgentError, badRequest, isMailboxAgentError } from '@mailstack/core/domain/mailboxes/agent-error';
import { authenticateMailboxKey } from '@mailstack/core/domain/mailboxes/authenticate-mailbox-key';
import type { MailboxCaller } from '@mailstack/core/domain/mailboxes/mailbox-key';
import { keyActor, type MailboxActor } from '@mailstack/core/domain/mailboxes/activity';
import { listAgentItems, readAgentItem } from '@mailstack/core/domain/mailboxes/agent-items';
import { saveDraft, savedDraftView } from '@mailstack/core/domain/mailboxes/drafts';
import { sendDraft } from '@mailstack/core/domain/mailboxes/send-draft';
import { SaveDraftRequest, SendDraftRequest, parseAgentBody } from '@mailstack/core/schemas/mailbox-agent';
import { sourceIp, type DashboardEnv } from './app.ts';
import { mailboxAgentDocument } from './mailbox-agent-openapi.ts';

type AgentEnv = { Variables: DashboardEnv['Variables'] & { caller: MailboxCaller; who: MailboxActor } };

const refuse = (c: Context, e: MailboxAgentError) => {
  if (e.retryAfter !== undefined) c.header('Retry-After', String(e.retryAfter));
  return c.json(e.toJSON(), e.status);
};

/**
 * Reads and drops what is left of a too-large body (up to twice the ceiling; a pause of 5 s ends
 * it) before the 413 goes out: a server that answers and closes while the client still uploads
 * cuts the client's write (EPIPE) before it reads the answer. Nothing read is kept.
 */
const drainRest = async (c: Context): Promise<void> => {
  const body = c.req.raw.body;
  if (!body || body.locked) return;
  const reader = body.getReader();
  let seen = 0;
  try {
    for (;;) {
      let idle: NodeJS.Timeout | undefined;
      const paused = new Promise<'paused'>((r) => {
        idle = setTimeout(() => r('paused'), TOO_LARGE_UPLOAD_IDLE_MS);
      });
      const next = await Promise.race([reader.read(), paused]).finally(() => clearTimeout(idle));
      if (next === 'paused' || next.done) return;
      seen += next.value.byteLength;
      if (seen > TOO_LARGE_DRAIN_FACTOR * MAILBOX_MAX_REQUEST_BYTES) return;
    }
  } catch {
    // The client went away: the answer below is all that is left to do.
  } finally {
    reader.cancel().catch(() => undefined);
  }
};

/**
 * The mailbox agent API (spec §4) under /api/mailbox-agent on the dashboard origin: Bearer mailbox
 * key, JSON in and out, each route parse → authenticate → the core's use case → the answer. Every
 * refusal is `{statusCode, name, message}` with the statuses of spec §7 (400, 401, 403, 404, 409,
 * 413, 503); session cookies and CSRF play no part here.
 */
export const mailboxAgentApi = () => {
  const api = new Hono<AgentEnv>();
  api.onError((error, c) => {
    if (isMailboxAgentError(error)) return refuse(c, error);
    (c.get('deps') as Deps | undefined)?.logger.error('mailbox agent API failed', {
      error: String((error as Error)?.stack ?? error),
    });
    const failed = internalErrorResponse();
    return c.body(failed.body ?? '', 500, failed.headers as Record<string, string>);
  });

  api.use('*', async (c, next) => {
    if (c.get('deps').config.MAILBOX_AGENT_DISABLED)
      throw new MailboxAgentError('not_found', 'The mailbox agent API is turned off on this instance.');
    return next();
  });
  // The description needs no key, so a client generator can read it.
  api.get('/openapi.json', (c) => c.json(mailboxAgentDocument(c.get('deps').config.DASHBOARD_URL)));

  api.use('*', async (c, next) => {
    const deps = c.get('deps');
    const caller = await authenticateMailboxKey(deps, c.req.header('authorization'), sourceIp(c));
    c.set('caller', caller);
    c.set('who', keyActor(caller.key, 'api'));
    return next();
  });
  api.use(
    '*',
    bodyLimit({
      maxSize: MAILBOX_MAX_REQUEST_BYTES,
      // The connection closes after the answer, so a client does not send its next request down a
      // socket the server is about to drop (as the API's 413 does).
      onError: async (c) => {
        await drainRest(c);
        c.header('Connection', 'close');
        return refuse(
          c,
          new MailboxAgentError(
            'payload_too_large',
            `The request body is larger than ${MAILBOX_MAX_REQUEST_BYTES} bytes; a draft holds at most 10 attachments of 256 KiB each.`,
          ),
        );
      },
    }),
  );

  const json = async (c: Context): Promise<unknown> => {
    try {
      return JSON.parse(await c.req.text());
    } catch {
      throw badRequest('The request body must be JSON (Content-Type: application/json).');
    }
  };

  api.get('/items', async (c) => {
    const id = c.req.query('id');
    const folder = c.req.query('folder');
    if (id !== undefined && folder !== undefined)
      throw badRequest('Give either `folder` (to list) or `id` (to read one item), not both.');
    if (id !== undefined) return c.json(await readAgentItem(c.get('deps'), c.get('caller'), c.get('who'), id));
    return c.json(await listAgentItems(c.get('deps'), c.get('caller'), c.get('who'), folder));
  });

  api.post('/drafts', async (c) => {
    const input = parseAgentBody(SaveDraftRequest, await json(c));
    const saved = await saveDraft(c.get('deps'), c.get('caller'), c.get('who'), input);
    return c.json(savedDraftView(saved));
  });

  api.post('/send', async (c) => {
    const input = parseAgentBody(SendDraftRequest, await json(c));
    const sent = await sendDraft(c.get('deps'), c.get('caller'), c.get('who'), input);
    return c.json(sent, sent.duplicate ? 200 : 202);
  });

  api.all('*', (c) =>
    refuse(
      c,
      new MailboxAgentError(
        'not_found',
        `The mailbox agent API has no ${c.req.method} ${new URL(c.req.url).pathname}: it serves GET /api/mailbox-agent/items, POST /api/mailbox-agent/drafts, POST /api/mailbox-agent/send and GET /api/mailbox-agent/openapi.json.`,
      ),
    ),
  );
  return api;
};
