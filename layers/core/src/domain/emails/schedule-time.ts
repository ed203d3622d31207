import { validationError } from '../../errors/api-error.ts';

/** How far ahead an email may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 3600 * 1000;

const UNITS: Record<string, number> = { second: 1000, sec: 1000, minute: 60_000, min: 60_000, hour: 3_600_000, hr: 3_600_000, day: 86_400_000 };

/**
 * Reads `scheduled_at`: an ISO 8601 date-time, or natural language such as "in 10 min" / "in 2 hours".
 * Returns epoch ms, or undefined when the time is not in the future (the email goes out now).
 */
export const parseScheduledAt = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined;
  const relative = /^\s*in\s+(\d+)\s*(second|sec|minute|min|hour|hr|day)s?\s*$/i.exec(value);
  const at = relative ? now + Number(relative[1]) * UNITS[relative[2]!.toLowerCase()]! : /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) throw validationError('`scheduled_at` must be an ISO 8601 date-time such as `2026-12-01T09:00:00Z`, or "in 10 min" / "in 2 hours".');
  if (at - now > MAX_SCHEDULE_AHEAD_MS) throw validationError('`scheduled_at` may be at most 30 days ahead.');
  return at > now ? at : undefined;
};
