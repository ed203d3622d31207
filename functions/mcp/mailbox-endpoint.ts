import { getDeps, type Deps } from '@mailstack/core/runtime/deps';
import { internalErrorResponse } from '@mailstack/core/http/respond';
import type { ApiEvent, ApiHandler, ApiResult } from '@mailstack/core/http/types';
import { MAILBOX_MAX_REQUEST_BYTES } from '@mailstack/core/limits';
import { MailboxAgentError, isMailboxAgentError } from '@mailstack/core/domain/mailboxes/agent-error';
import { authenticateMailboxKey } from '@mailstack/core/domain/mailboxes/authenticate-mailbox-key';
import { keyActor } from '@mailstack/core/domain/mailboxes/activity';
import type { Mailbox } from '@mailstack/core/domain/mailboxes/mailbox';
import { agentBrief, getAgentSettings } from '@mailstack/core/domain/mailboxes/inbox-agent';
import { createMailboxMcpServer } from './mailbox-server.ts';
import { notServed, refuseForeignOrigin, serveStateless } from './streamable-http.ts';

/** What the endpoint runs with; tests may inject their deps. */
export interface MailboxMcpEndpointOptions {
  readonly deps?: () => Deps;
}

/** The refusal as HTTP: the mailbox agent API's body; a 401 carries the Bearer challenge (RFC 6750). */
const refuse = (error: MailboxAgentError, tokenPresented: boolean): ApiResult => ({
  statusCode: error.status,
  headers: {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...(error.status === 401
      ? { 'www-authenticate': `Bearer realm="mailbox"${tokenPresented ? ', error="invalid_token"' : ''}` }
      : {}),
    ...(error.retryAfter !== undefined ? { 'retry-after': String(error.retryAfter) } : {}),
  },
  body: JSON.stringify(error.toJSON()),
});

/** The `{mailbox}` segment as the caller wrote it: a mailbox id, or its address (URL-encoded or not). */
const segmentOf = (event: ApiEvent): string => {
  const raw = event.pathParameters?.mailbox ?? '';
  try {
    return raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
};

const names = (mailbox: Mailbox, segment: string): boolean =>
  segment === mailbox.id || segment.toLowerCase() === mailbox.address;

/**
 * `POST/GET/DELETE /mcp/{mailbox}`: a mailbox's MCP endpoint (spec §4) over Streamable HTTP,
 * stateless; a foreign Origin or Host is refused first (403, DNS rebinding). It serves a
 * mailbox key (`Authorization: Bearer mmb_...`) and nothing else: no key or
 * another credential (an API key, an OAuth token) is 401, a revoked or expired key 403, and a
 * key of another mailbox 404, as is the endpoint while MAILBOX_AGENT_DISABLED is set, so a key
 * never learns whether another mailbox exists.
 */
export const mailboxMcpEndpoint = (options: MailboxMcpEndpointOptions = {}): ApiHandler =>
  async function mailboxMcp(event) {
    const deps = (options.deps ?? getDeps)();
    const authorization = event.headers?.authorization ?? event.headers?.Authorization;
    const foreign = refuseForeignOrigin(deps, event);
    if (foreign) return foreign;
    try {
      if (deps.config.MAILBOX_AGENT_DISABLED)
        throw new MailboxAgentError('not_found', 'Mailbox MCP endpoints are turned off on this instance.');
      const caller = await authenticateMailboxKey(deps, authorization, event.requestContext.http.sourceIp);
      const segment = segmentOf(event);
      if (!names(caller.mailbox, segment)) {
        throw new MailboxAgentError(
          'not_found',
          `This key opens no mailbox at /mcp/${encodeURIComponent(segment)}: a mailbox key works only at its own mailbox's endpoint, /mcp/${caller.mailbox.id}.`,
        );
      }
      const method = event.requestContext.http.method;
      if (method !== 'POST') return notServed(method, `/mcp/${caller.mailbox.id}`);
      return await serveStateless(
        deps,
        event,
        createMailboxMcpServer(
          deps,
          caller,
          keyActor(caller.key, 'mcp'),
          undefined,
          agentBrief(await getAgentSettings(deps, caller.mailbox)),
        ),
        MAILBOX_MAX_REQUEST_BYTES,
      );
    } catch (error) {
      if (isMailboxAgentError(error)) return refuse(error, /^Bearer\s+\S/i.test(authorization ?? ''));
      deps.logger.error('mailbox mcp endpoint failed', error as Error);
      return internalErrorResponse();
    }
  };

/** The Lambda handler of the `/mcp/{mailbox}` routes. */
export const handler = mailboxMcpEndpoint();
