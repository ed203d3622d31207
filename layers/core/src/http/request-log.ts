import { LOG_SEND_LINGER_MS, queueRequestLog } from '../domain/logs/queue-request-log.ts';
import type { Deps } from '../runtime/deps.ts';
import type { Caller } from '../domain/caller.ts';
import type { ApiEvent, ApiResult } from './types.ts';

const jsonOrText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const requestBodyOf = (event: ApiEvent): unknown => {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return raw.trim() === '' ? undefined : jsonOrText(raw);
};

const responseBodyOf = (result: ApiResult): unknown => {
  const type = String(result.headers?.['content-type'] ?? '');
  if (!type.startsWith('application/json') || typeof result.body !== 'string' || result.body === '') return undefined;
  return jsonOrText(result.body);
};

const userAgentOf = (event: ApiEvent): string | null => {
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (name.toLowerCase() === 'user-agent' && value) return value;
  return null;
};

/** What a host finishes once it has sent the answer, by request (see answerFirst). */
const afterAnswer = new WeakMap<ApiEvent, Promise<void>[]>();

/**
 * For a host that can answer before its handler's remaining work is done (the local host, whose
 * process lives on): the request's log is then queued after the answer is sent, and the returned
 * function waits for it. Lambda cannot (its environment freezes once the handler returns), so
 * there the handler waits for the log, a bounded LOG_ENQUEUE_TIMEOUT_MS at most, before it returns.
 */
export const answerFirst = (event: ApiEvent): (() => Promise<void>) => {
  const pending: Promise<void>[] = [];
  afterAnswer.set(event, pending);
  return async () => {
    await Promise.all(pending);
  };
};

/**
 * Hands an answered request of an authenticated team to the request-log recorder (GET /logs),
 * after its answer is formed; waits a bounded moment (or leaves that to a host that answers
 * first) and never fails the request.
 */
export const recordAnswer = async (deps: Deps, event: ApiEvent, caller: Caller, result: ApiResult): Promise<void> => {
  const later = afterAnswer.get(event);
  let recording: Promise<void>;
  try {
    recording = queueRequestLog(
      deps,
      {
        teamId: caller.team.id,
        method: event.requestContext?.http?.method ?? '',
        endpoint: event.rawPath ?? '',
        status: result.statusCode ?? 200,
        userAgent: userAgentOf(event),
        requestBody: requestBodyOf(event),
        responseBody: responseBodyOf(result),
        receivedAt: event.requestContext?.timeEpoch ?? deps.clock.now(),
      },
      later ? LOG_SEND_LINGER_MS : 0,
    );
  } catch (error) {
    // A request whose log cannot even be formed is still answered.
    deps.logger.warn('request log not formed; dropped', { endpoint: event.rawPath, error: String(error) });
    return;
  }
  if (later) later.push(recording);
  else await recording;
};
