import { variableId } from './save-template.ts';
import { validationError } from '../../errors/api-error.ts';
import type { TemplateItem } from '../../table/templates.ts';

/** The full wire Template (spec §2). */
export const templateView = (t: TemplateItem) => ({
  object: 'template' as const,
  id: t.id,
  current_version_id: t.current_version_id,
  name: t.name,
  alias: t.alias,
  from: t.from,
  subject: t.subject,
  reply_to: t.reply_to,
  html: t.html,
  text: t.text,
  variables: t.variables.map((x) => ({
    id: variableId(t.id, x),
    key: x.key,
    type: x.type,
    fallback_value: x.fallback_value,
    created_at: x.created_at,
    updated_at: x.updated_at,
  })),
  status: 'published' as const,
  published_at: t.published_at,
  created_at: t.created_at,
  updated_at: t.updated_at,
  has_unpublished_versions: false,
});

/** A list row: summary fields only. */
export const templateRow = (t: TemplateItem) => ({
  id: t.id,
  name: t.name,
  alias: t.alias,
  status: 'published' as const,
  published_at: t.published_at,
  created_at: t.created_at,
  updated_at: t.updated_at,
});

/** Refuses a variable with neither value nor fallback, naming it. */
export const missingVariableError = (names: readonly string[], field: string) =>
  validationError(
    `\`${field}\`: no value for ${names.map((n) => `\`${n}\``).join(', ')} and no fallback; pass ${names.length > 1 ? 'them' : 'it'} in \`${field}\` or give the variable a fallback_value.`,
  );
