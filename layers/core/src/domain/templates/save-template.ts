import { v5 } from 'uuid';
import type { Deps } from '../../runtime/deps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { CreateTemplateRequest } from '../../schemas/templates.ts';
import { parseMailbox, parseMailboxList } from '../emails/rules/addresses.ts';
import { AliasTaken, writeTemplate, type TemplateItem } from '../../table/templates.ts';

type VariableInput = NonNullable<CreateTemplateRequest['variables']>[number];

/** A template's variables as saved: each keeps its id and times while unchanged. */
export const variablesOf = (
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
export const variableId = (templateId: string, x: TemplateItem['variables'][number]): string =>
  x.id ?? v5(x.key, templateId);

/** 422 for a `from` or `reply_to` that is not an address. */
export const checkSenders = (input: {
  from?: string | null | undefined;
  reply_to?: string | string[] | null | undefined;
}) => {
  if (input.from) parseMailbox(input.from, 'from');
  if (input.reply_to) parseMailboxList(input.reply_to, 'reply_to');
};

/** Writes a template (moving its alias guard); 409 when another template of the team has the alias. */
export const saved = async (deps: Deps, next: TemplateItem, previousAlias: string | null | undefined) => {
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
