import { validationError } from '../../../errors/api-error.ts';

/** Named headers a sender may set besides X- headers (spec send rule 5). */
const NAMED = ['In-Reply-To', 'References', 'Importance', 'Priority', 'Comments', 'Keywords', 'Organization', 'List-Unsubscribe', 'List-Unsubscribe-Post'];
/** X- prefixes reserved for the provider, our brand and the legacy brand. */
const RESERVED = ['x-ses-', 'x-mailstack-', 'x-resend-'];
const FIELD_NAME = /^[\x21-\x39\x3B-\x7E]+$/;
const ALLOWED = `X- headers (except X-SES-, X-Mailstack- and X-Resend-), ${NAMED.join(', ')}`;

const find = (headers: Record<string, string>, name: string): [string, string] | undefined =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase());

/**
 * Checks custom headers against the allowlist and the List-Unsubscribe rules; returns them
 * unchanged (or null when none were given).
 */
export const validateCustomHeaders = (headers: Readonly<Record<string, unknown>> | undefined | null): Record<string, string> | null => {
  if (headers === undefined || headers === null) return null;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!FIELD_NAME.test(name)) throw validationError(`\`headers\`: "${name}" is not a valid header name.`);
    if (typeof value !== 'string') throw validationError(`\`headers.${name}\` must be a string.`);
    if (/[\r\n]/.test(value)) throw validationError(`\`headers.${name}\` may not contain line breaks.`);
    const lower = name.toLowerCase();
    const isX = lower.startsWith('x-');
    if (isX && RESERVED.some((p) => lower.startsWith(p))) throw validationError(`\`headers\`: ${name} uses a reserved prefix; allowed are ${ALLOWED}.`);
    if (!isX && !NAMED.some((n) => n.toLowerCase() === lower)) throw validationError(`\`headers\`: ${name} cannot be set; allowed are ${ALLOWED}.`);
    out[name] = value;
  }
  const unsubscribe = find(out, 'List-Unsubscribe');
  const post = find(out, 'List-Unsubscribe-Post');
  if (unsubscribe || post) {
    if (!unsubscribe || !post) throw validationError('`headers`: List-Unsubscribe and List-Unsubscribe-Post must be sent together.');
    const targets = unsubscribe[1].split(',').map((t) => t.trim());
    for (const t of targets) {
      if (!/^<(https:\/\/[^>\s]+|mailto:[^>\s]+)>$/i.test(t)) throw validationError(`\`headers.List-Unsubscribe\`: each target must be an https or mailto URL in angle brackets, got \`${t}\`.`);
    }
    if (!targets.some((t) => /^<https:/i.test(t))) throw validationError('`headers.List-Unsubscribe` needs at least one https target for one-click unsubscribe.');
    if (post[1].trim() !== 'List-Unsubscribe=One-Click') throw validationError('`headers.List-Unsubscribe-Post` must be exactly `List-Unsubscribe=One-Click`.');
  }
  return Object.keys(out).length > 0 ? out : null;
};

/** True when the headers carry a List-Unsubscribe pair. */
export const hasUnsubscribePair = (headers: Record<string, string> | null): boolean => !!headers && !!find(headers, 'List-Unsubscribe');
