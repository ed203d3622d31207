import { escapeHtml } from '../escape-html.ts';

/**
 * The one renderer of template placeholders, shared by emails sent with a template and by
 * broadcasts: `{{{NAME}}}` (or `{{NAME}}`), with an inline fallback `{{{NAME|fallback}}}`.
 * Values are HTML-escaped in html and left raw in text and subjects.
 */

/** A placeholder: its name (letters, digits, `_` and `.` for `contact.first_name`) and optional inline fallback. */
const PLACEHOLDER = /\{\{\{?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:\|([^}]*))?\}?\}\}/g;

/** Placeholders the renderer leaves in place: the send pipeline fills them per recipient. */
const PIPELINE_PLACEHOLDERS: ReadonlySet<string> = new Set(['UNSUBSCRIBE_URL', 'RESEND_UNSUBSCRIBE_URL']);

/** A value a placeholder can take. */
export type TemplateValue = string | number;

/** The names of the placeholders in `sources` (pipeline ones excluded), in order of appearance. */
export const placeholderNames = (...sources: (string | null | undefined)[]): string[] => {
  const names = new Set<string>();
  for (const source of sources)
    for (const m of (source ?? '').matchAll(PLACEHOLDER)) if (!PIPELINE_PLACEHOLDERS.has(m[1]!)) names.add(m[1]!);
  return [...names];
};

/** Names that have neither a value nor a fallback (declared or inline), in order of appearance. */
export const missingVariables = (
  lookup: (name: string) => TemplateValue | undefined,
  ...sources: (string | null | undefined)[]
): string[] => {
  const missing = new Set<string>();
  for (const source of sources) {
    for (const m of (source ?? '').matchAll(PLACEHOLDER)) {
      if (PIPELINE_PLACEHOLDERS.has(m[1]!) || m[2] !== undefined) continue;
      if (lookup(m[1]!) === undefined) missing.add(m[1]!);
    }
  }
  return [...missing];
};

/**
 * Replaces each placeholder with its value, else its inline fallback, else the empty string
 * (callers refuse missing values first with `missingVariables`). `html` escapes values, not the
 * author's inline fallbacks.
 */
export const render = (
  source: string,
  lookup: (name: string) => TemplateValue | undefined,
  mode: 'html' | 'text',
): string =>
  source.replace(PLACEHOLDER, (whole, name: string, fallback: string | undefined) => {
    if (PIPELINE_PLACEHOLDERS.has(name)) return whole;
    const value = lookup(name);
    // An inline fallback is part of the author's source (already HTML in html); values are data.
    if (value === undefined) return (fallback ?? '').trim();
    return mode === 'html' ? escapeHtml(String(value)) : String(value);
  });
