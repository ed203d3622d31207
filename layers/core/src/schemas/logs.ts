import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import { LOG_BODY_MAX_BYTES } from '../limits.ts';

const Body = (what: string) =>
  v.pipe(
    v.nullable(v.unknown()),
    v.description(
      `The ${what} as JSON, with secrets and attachment content replaced by "[redacted]"; past ${LOG_BODY_MAX_BYTES / 1024} KiB, \`{ truncated: true, bytes, preview }\`; null without one.`,
    ),
  );

/** A request log as GET /logs lists it (the SDK's ListLogsResponseSuccess rows). */
export const LogRow = v.object({
  id: Id,
  created_at: Timestamp,
  endpoint: v.pipe(v.string(), v.description('The path called, without its query.')),
  method: v.string(),
  response_status: v.pipe(v.number(), v.integer()),
  user_agent: v.nullable(v.string()),
});

/** GET /logs/{id} (the SDK's GetLogResponseSuccess) */
export const LogObject = v.object({
  object: v.literal('log'),
  ...LogRow.entries,
  request_body: Body('request body'),
  response_body: Body('answer'),
});
