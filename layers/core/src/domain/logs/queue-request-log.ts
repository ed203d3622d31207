import type { LogMessage } from './request-log.ts';
import type { Deps } from '../../runtime/deps.ts';
import { LOG_BODY_MAX_BYTES, LOG_ENQUEUE_TIMEOUT_MS } from '../../limits.ts';
import type { QueueMessage } from '../../ports/queue.ts';
import { ERASED } from '../contacts/erase-history.ts';
import { KEEP, rewriteJson } from '../rewrite-json.ts';

/** What a redacted value reads as. */
const REDACTED = '[redacted]';

/**
 * Fields whose value is a secret or a capability wherever they appear: API key tokens, signing
 * secrets, passwords, OAuth tokens, attachment content, signed download links.
 */
const SECRET_FIELDS = new Set([
  'token',
  'secret',
  'signing_secret',
  'password',
  'api_key',
  'access_token',
  'refresh_token',
  'client_secret',
  'content',
  'download_url',
]);

/** Credentials by their prefix (API keys, mailbox keys, webhook signing secrets), wherever they stand in a text. */
const SECRET_VALUE = /\b(?:ms|mmb|whsec)_[A-Za-z0-9+/=_-]{8,}/g;

/** The signed token of a preference, unsubscribe or download link. */
const LINK_TOKEN = /(\/(?:preferences|unsubscribe|downloads)\/)[^/?#\s"]+/g;

const ADDRESS = /[^\s"<>,;:()[\]]+@[^\s"<>,;:()[\]]+\.[^\s"<>,;:()[\]]+/g;

const redactText = (text: string): string => text.replace(SECRET_VALUE, REDACTED).replace(LINK_TOKEN, `$1${REDACTED}`);

/** A body with every secret field and secret-looking text replaced by REDACTED. */
const redactSecrets = (value: unknown): unknown =>
  rewriteJson(value, (v, field) => {
    if (field && SECRET_FIELDS.has(field.toLowerCase()) && v !== null && v !== undefined) return REDACTED;
    return typeof v === 'string' ? redactText(v) : KEEP;
  });

const eraseAddresses = (value: unknown): unknown =>
  rewriteJson(value, (v) => (typeof v === 'string' ? v.replace(ADDRESS, ERASED) : KEEP));

/** A body too long to keep whole: its size and the first LOG_BODY_MAX_BYTES of its JSON. */
interface TruncatedBody {
  readonly truncated: true;
  readonly bytes: number;
  readonly preview: string;
}

/** A body as its log keeps it (JSON text): redacted, and cut to LOG_BODY_MAX_BYTES. */
const storedBody = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  if (bytes <= LOG_BODY_MAX_BYTES) return json;
  // A cut through a multi-byte character leaves a replacement character, dropped.
  const preview = Buffer.from(json)
    .subarray(0, LOG_BODY_MAX_BYTES)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return JSON.stringify({ truncated: true, bytes, preview } satisfies TruncatedBody);
};

/** A request as answered, as the HTTP layer hands it to the recorder. */
export interface AnsweredRequest {
  readonly teamId: string;
  readonly method: string;
  /** The path called (`/emails/…`), without the query. */
  readonly endpoint: string;
  readonly status: number;
  readonly userAgent: string | null;
  /** The parsed JSON request body, or its text when it is not JSON; undefined without one. */
  readonly requestBody: unknown;
  /** The parsed JSON answer, or undefined (pages, images, redirects). */
  readonly responseBody: unknown;
  /** When the request arrived (epoch ms). */
  readonly receivedAt: number;
}

/** The log of an answered request, redacted: a request that erases contacts keeps no address either. */
export const logMessageOf = (deps: Pick<Deps, 'ids'>, request: AnsweredRequest): LogMessage => {
  const erases = (request.requestBody as { erase?: unknown } | null)?.erase === true;
  const clean = (body: unknown) => {
    const redacted = redactSecrets(body);
    return storedBody(erases ? eraseAddresses(redacted) : redacted);
  };
  return {
    id: deps.ids.next(),
    team_id: request.teamId,
    created_at: new Date(request.receivedAt).toISOString(),
    method: request.method,
    endpoint: request.endpoint,
    response_status: request.status,
    user_agent: request.userAgent,
    request_body: clean(request.requestBody),
    response_body: clean(request.responseBody),
  };
};

/** Logs waiting for the next send to a queue, and that send. */
interface Outbox {
  readonly waiting: QueueMessage[];
  readonly sent: Promise<void>;
}

const outboxes = new Map<string, Outbox>();

/** SQS takes ten messages a call. */
const SEND_BATCH = 10;

/**
 * How long a log waits for others to share its queue call (ms) when the request's answer has
 * already gone out (a host that answers first): the caller waits for none of it.
 */
export const LOG_SEND_LINGER_MS = 50;

/**
 * Adds a log to the queue's next send: the logs of the requests answered in one turn of the event
 * loop (or within `lingerMs`) go out in one call, up to ten, so a busy process adds about one
 * queue call per ten requests instead of one each. Answers when that send is done.
 */
const send = (deps: Deps, queueUrl: string, message: LogMessage, lingerMs: number): Promise<void> => {
  let box = outboxes.get(queueUrl);
  if (!box || box.waiting.length >= SEND_BATCH) {
    const waiting: QueueMessage[] = [];
    const flush = async () => {
      if (outboxes.get(queueUrl)?.waiting === waiting) outboxes.delete(queueUrl);
      await deps.queue.send(queueUrl, waiting);
    };
    const sent = new Promise<void>((resolve) =>
      lingerMs > 0 ? setTimeout(resolve, lingerMs) : setImmediate(resolve),
    ).then(flush);
    box = { waiting, sent };
    outboxes.set(queueUrl, box);
  }
  box.waiting.push({ body: message });
  if (box.waiting.length >= SEND_BATCH) outboxes.delete(queueUrl);
  return box.sent;
};

/**
 * Queues the log of an answered request, best effort: it waits at most LOG_ENQUEUE_TIMEOUT_MS
 * and never throws (a lost log is logged and dropped; the answer goes out either way).
 */
export const queueRequestLog = async (deps: Deps, request: AnsweredRequest, lingerMs = 0): Promise<void> => {
  const queueUrl = deps.config.REQUEST_LOGS_QUEUE_URL;
  if (!queueUrl || deps.config.REQUEST_LOGS_DISABLED) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    const sent = send(deps, queueUrl, logMessageOf(deps, request), lingerMs);
    sent.catch(() => undefined);
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), LOG_ENQUEUE_TIMEOUT_MS);
    });
    if ((await Promise.race([sent, late])) === 'late')
      deps.logger.warn('request log not queued in time; dropped', { endpoint: request.endpoint });
  } catch (error) {
    deps.logger.warn('request log not queued; dropped', { endpoint: request.endpoint, error: String(error) });
  } finally {
    clearTimeout(timer);
  }
};
