import type { Deps } from '../../runtime/deps.ts';
import type { Item } from '../../table/ops.ts';
import { packJson, unpackJson } from '../../table/packed.ts';

/**
 * Request logs (GET /logs): every API request of a team, recorded after its answer is formed and
 * off the request path (a queue message; the recorder worker writes the row), with its secrets
 * and attachment content redacted and each body cut to LOG_BODY_MAX_BYTES, kept
 * LOG_RETENTION_DAYS. Recording is best effort: a log that cannot be queued in
 * LOG_ENQUEUE_TIMEOUT_MS is dropped and the request is answered as if nothing happened.
 */

/** The message the recorder worker receives: one log, already redacted and cut. */
export interface LogMessage {
  readonly id: string;
  readonly team_id: string;
  readonly created_at: string;
  readonly method: string;
  readonly endpoint: string;
  readonly response_status: number;
  readonly user_agent: string | null;
  readonly request_body: string | null;
  readonly response_body: string | null;
}

/** A stored log. */
export interface RequestLog {
  readonly id: string;
  readonly createdAt: string;
  readonly method: string;
  readonly endpoint: string;
  readonly status: number;
  readonly userAgent: string | null;
  readonly requestBody: unknown;
  readonly responseBody: unknown;
}

const parsed = (text: unknown): unknown => (typeof text === 'string' ? JSON.parse(text) : null);

/** A log's two bodies as JSON texts (null: none). */
export interface LogBodies {
  readonly request_body: string | null;
  readonly response_body: string | null;
}

/** Bodies together past this many bytes are kept compressed: DynamoDB bills the log's write by its size. */
const PACK_PAST_BYTES = 512;

/**
 * The attributes a log's bodies are stored as: the texts while small; past PACK_PAST_BYTES
 * together, compressed in `bodies` (a 16 KB HTML email's request log goes from 18 write units to
 * about 3).
 */
export const storedBodies = (b: LogBodies): Record<string, unknown> =>
  Buffer.byteLength(b.request_body ?? '') + Buffer.byteLength(b.response_body ?? '') > PACK_PAST_BYTES
    ? { request_body: null, response_body: null, bodies: packJson(b) }
    : { request_body: b.request_body, response_body: b.response_body };

/** A stored log's bodies, compressed or not. */
export const bodiesOf = (item: Item): LogBodies =>
  item.bodies instanceof Uint8Array
    ? unpackJson<LogBodies>(item.bodies)
    : { request_body: item.request_body ?? null, response_body: item.response_body ?? null };

export const logOf = (item: Item): RequestLog => {
  const bodies = bodiesOf(item);
  return {
    id: item.id,
    createdAt: item.created_at,
    method: item.method,
    endpoint: item.endpoint,
    status: item.response_status,
    userAgent: item.user_agent ?? null,
    requestBody: parsed(bodies.request_body),
    responseBody: parsed(bodies.response_body),
  };
};

export const live = (deps: Pick<Deps, 'clock'>, item: Item | undefined): item is Item =>
  item !== undefined && !(typeof item.ttl === 'number' && item.ttl * 1000 < deps.clock.now());

/** A log as GET /logs lists it. */
export const logRow = (log: RequestLog) => ({
  id: log.id,
  created_at: log.createdAt,
  endpoint: log.endpoint,
  method: log.method,
  response_status: log.status,
  user_agent: log.userAgent,
});

/** A log as GET /logs/{id} answers it. */
export const logView = (log: RequestLog) => ({
  object: 'log' as const,
  ...logRow(log),
  request_body: log.requestBody,
  response_body: log.responseBody,
});
