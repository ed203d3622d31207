import type { Deps } from '../../runtime/deps.ts';
import { validationError, isApiError } from '../../errors/api-error.ts';
import type { SendEmailRequest, ResolvedEmail } from '../../schemas/emails.ts';
import { getTemplate } from './get-template.ts';
import { missingVariableError } from './template-view.ts';
import type { TemplateItem } from '../../table/templates.ts';
import { MAX_SUBJECT_LENGTH } from '../../limits.ts';
import { missingVariables, render, type TemplateValue } from './render.ts';

/** A declared variable as lookups read it. */
export interface TemplateVariable {
  readonly key: string;
  readonly type: string;
  readonly fallback_value?: unknown;
}

/** Templates read once per call (a batch may name one template many times). */
export type TemplateCache = Map<string, Promise<TemplateItem>>;

/**
 * A variable lookup over request values and the template's declared fallbacks; a declared
 * `number` variable takes only numbers.
 */
export const templateLookup = (
  t: { readonly variables: readonly TemplateVariable[] },
  values: Readonly<Record<string, TemplateValue>>,
  field: string,
) => {
  const declared = new Map(t.variables.map((x) => [x.key, x]));
  for (const [key, value] of Object.entries(values)) {
    const d = declared.get(key);
    if (d?.type === 'number' && typeof value !== 'number')
      throw validationError(`\`${field}.${key}\` must be a number, as the template declares it.`);
    if (d?.type === 'string' && typeof value !== 'string')
      throw validationError(`\`${field}.${key}\` must be a string, as the template declares it.`);
  }
  return (name: string): TemplateValue | undefined => {
    if (Object.hasOwn(values, name)) return values[name];
    const fallback = declared.get(name)?.fallback_value;
    return typeof fallback === 'string' || typeof fallback === 'number'
      ? fallback
      : fallback === undefined || fallback === null
        ? undefined
        : JSON.stringify(fallback);
  };
};

/**
 * Turns an email that names a template into the plain email it stands for: the template's
 * from / subject / reply_to unless the request sets them, its html and text rendered with the
 * variables (HTML-escaped in html, raw in text). A variable with no value and no fallback is 422.
 */
export const applyTemplate = async (
  deps: Deps,
  teamId: string,
  input: SendEmailRequest,
  cache: TemplateCache = new Map(),
): Promise<ResolvedEmail> => {
  const { template: ref, ...rest } = input;
  if (!ref) {
    // The schema already required these without a template.
    return { ...rest, from: rest.from!, subject: rest.subject! };
  }
  let found = cache.get(ref.id);
  if (!found) cache.set(ref.id, (found = getTemplate(deps, teamId, ref.id)));
  const t = await found.catch((error) => {
    if (isApiError(error) && error.name === 'not_found')
      throw validationError(`\`template.id\`: this team has no template with the id or alias \`${ref.id}\`.`);
    throw error;
  });
  const lookup = templateLookup(t, ref.variables ?? {}, 'template.variables');
  const subjectSource = rest.subject ?? t.subject;
  const missing = missingVariables(lookup, t.html, t.text, rest.subject === undefined ? t.subject : null);
  if (missing.length > 0) throw missingVariableError(missing, 'template.variables');
  const from = rest.from ?? t.from;
  if (!from)
    throw validationError(
      '`from` is required: the template has no sender, so give `from` (e.g. `Acme <hello@acme.com>`).',
    );
  if (!subjectSource) throw validationError('`subject` is required: the template has no subject, so give `subject`.');
  const subject = rest.subject ?? render(subjectSource, lookup, 'text');
  if (subject.length > MAX_SUBJECT_LENGTH) {
    throw validationError(
      `\`subject\`: the template's subject renders to ${subject.length} characters with \`template.variables\`; a subject is at most ${MAX_SUBJECT_LENGTH}.`,
    );
  }
  return {
    ...rest,
    from,
    subject,
    ...(rest.reply_to === undefined && t.reply_to ? { reply_to: t.reply_to } : {}),
    html: render(t.html, lookup, 'html'),
    ...(t.text !== null ? { text: render(t.text, lookup, 'text') } : {}),
  };
};
