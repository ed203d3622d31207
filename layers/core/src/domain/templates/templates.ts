import { v5 } from 'uuid';
import type { Deps } from '../../runtime/deps.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { CreateTemplateRequest, UpdateTemplateRequest } from '../../schemas/templates.ts';
import { parseMailbox, parseMailboxList } from '../emails/rules/addresses.ts';
import { isId } from '../contacts/contact.ts';
import type { Page, PageRequest } from '../paging.ts';
import {
  AliasTaken,
  pageTemplates,
  readTemplate,
  removeTemplate,
  templateIdByAlias,
  writeTemplate,
  type TemplateItem,
} from '../../table/templates.ts';

export type { TemplateItem } from '../../table/templates.ts';

type VariableInput = NonNullable<CreateTemplateRequest['variables']>[number];

const variablesOf = (
  input: readonly VariableInput[] | null | undefined,
  before: TemplateItem['variables'],
  now: string,
  newId: () => string,
): TemplateItem['variables'] => {
  const previous = new Map(before.map((x) => [x.key, x]));
  return (input ?? []).map((x) => {
    const old = previous.get(x.key);
    const same = old && old.type === x.type && old.fallback_value === (x.fallback_value ?? null);
    return {
      id: old?.id ?? newId(),
      key: x.key,
      type: x.type,
      fallback_value: x.fallback_value ?? null,
      created_at: old?.created_at ?? now,
      updated_at: same ? old.updated_at : now,
    };
  });
};

/** A variable's id: the one stored with it, or for a variable saved before ids were kept, one derived from its template and key (stable across reads). */
const variableId = (templateId: string, x: TemplateItem['variables'][number]): string => x.id ?? v5(x.key, templateId);

const checkSenders = (input: { from?: string | null | undefined; reply_to?: string | string[] | null | undefined }) => {
  if (input.from) parseMailbox(input.from, 'from');
  if (input.reply_to) parseMailboxList(input.reply_to, 'reply_to');
};

const replyToList = (r: string | string[] | null | undefined): string[] | null =>
  r === undefined || r === null ? null : Array.isArray(r) ? r : [r];

const saved = async (deps: Deps, next: TemplateItem, previousAlias: string | null | undefined) => {
  try {
    await writeTemplate(deps, next, previousAlias);
  } catch (error) {
    if (error instanceof AliasTaken)
      throw new ApiError(
        'conflict',
        `Another template of this team already has the alias \`${next.alias}\`; aliases are unique per team.`,
        { cause: error },
      );
    throw error;
  }
  return next;
};

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

/** Creates a template; every save is live at once (status published). */
export const createTemplate = async (
  deps: Deps,
  teamId: string,
  input: CreateTemplateRequest,
): Promise<TemplateItem> => {
  checkSenders(input);
  const now = new Date(deps.clock.now()).toISOString();
  const id = deps.ids.next();
  return saved(
    deps,
    {
      id,
      team_id: teamId,
      name: input.name,
      alias: input.alias ?? null,
      from: input.from ?? null,
      subject: input.subject ?? null,
      reply_to: replyToList(input.reply_to),
      html: input.html,
      text: input.text ?? null,
      variables: variablesOf(input.variables, [], now, () => deps.ids.next()),
      current_version_id: deps.ids.next(),
      published_at: now,
      created_at: now,
      updated_at: now,
    },
    null,
  );
};

/** Reads a template by id or alias; another team's answers 404. */
export const getTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const id = isId(idOrAlias) ? idOrAlias : await templateIdByAlias(deps, teamId, idOrAlias);
  const t = id ? await readTemplate(deps, teamId, id) : undefined;
  if (!t) throw notFound(`Template ${idOrAlias}`);
  return t;
};

/** A page of the team's templates. */
export const listTemplates = (deps: Deps, teamId: string, page: PageRequest): Promise<Page<TemplateItem>> =>
  pageTemplates(deps, teamId, page);

/** Changes a template; live at once (a new version id). */
export const updateTemplate = async (
  deps: Deps,
  teamId: string,
  idOrAlias: string,
  change: UpdateTemplateRequest,
): Promise<TemplateItem> => {
  checkSenders(change);
  const t = await getTemplate(deps, teamId, idOrAlias);
  const now = new Date(deps.clock.now()).toISOString();
  const pick = <K extends keyof UpdateTemplateRequest & keyof TemplateItem>(k: K) =>
    change[k] === undefined ? t[k] : change[k];
  return saved(
    deps,
    {
      ...t,
      name: change.name ?? t.name,
      html: change.html ?? t.html,
      alias: pick('alias') ?? null,
      subject: pick('subject') ?? null,
      text: pick('text') ?? null,
      from: pick('from') ?? null,
      reply_to: change.reply_to === undefined ? t.reply_to : replyToList(change.reply_to),
      variables:
        change.variables === undefined
          ? t.variables
          : variablesOf(change.variables, t.variables, now, () => deps.ids.next()),
      current_version_id: deps.ids.next(),
      published_at: now,
      updated_at: now,
    },
    t.alias,
  );
};

/** Publishes the current version (every save is already live: this stamps published_at). */
export const publishTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const t = await getTemplate(deps, teamId, idOrAlias);
  return saved(deps, { ...t, published_at: new Date(deps.clock.now()).toISOString() }, t.alias);
};

/** Copies a template under a new id (no alias: aliases are unique). */
export const duplicateTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const t = await getTemplate(deps, teamId, idOrAlias);
  const now = new Date(deps.clock.now()).toISOString();
  // The copy's variables are its own: new ids, same keys, types and fallbacks.
  const variables = t.variables.map((x) => ({ ...x, id: deps.ids.next() }));
  return saved(
    deps,
    {
      ...t,
      id: deps.ids.next(),
      name: `${t.name} (copy)`,
      alias: null,
      variables,
      current_version_id: deps.ids.next(),
      published_at: now,
      created_at: now,
      updated_at: now,
    },
    null,
  );
};

/** Deletes a template; broadcasts made from it keep their own copy. */
export const deleteTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const t = await getTemplate(deps, teamId, idOrAlias);
  await removeTemplate(deps, t);
  return t;
};

/** Refuses a variable with neither value nor fallback, naming it. */
export const missingVariableError = (names: readonly string[], field: string) =>
  validationError(
    `\`${field}\`: no value for ${names.map((n) => `\`${n}\``).join(', ')} and no fallback; pass ${names.length > 1 ? 'them' : 'it'} in \`${field}\` or give the variable a fallback_value.`,
  );
