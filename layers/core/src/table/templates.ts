import { MailstackError } from '../errors/mailstack-error.ts';
import type { Deps } from '../runtime/deps.ts';
import { keys } from './keys.ts';
import { getItem, transact, type Write } from './ops.ts';
import { queryPage } from './query-page.ts';
import type { Page, PageRequest } from '../domain/paging.ts';

/** The stored template (attribute names as stored). */
export interface TemplateItem {
  readonly id: string;
  readonly team_id: string;
  readonly name: string;
  readonly alias: string | null;
  readonly from: string | null;
  readonly subject: string | null;
  readonly reply_to: string[] | null;
  readonly html: string;
  readonly text: string | null;
  readonly variables: {
    id?: string;
    key: string;
    type: string;
    fallback_value: unknown;
    created_at: string;
    updated_at: string;
  }[];
  readonly current_version_id: string;
  readonly published_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

const strip = (i: Record<string, any>): TemplateItem => {
  const { pk: _pk, sk: _sk, type: _t, ...rest } = i;
  return rest as TemplateItem;
};

/** Thrown when an alias is already another template's. */
export class AliasTaken extends MailstackError {}

/** Reads a template by id. */
export const readTemplate = async (deps: Deps, teamId: string, id: string): Promise<TemplateItem | undefined> => {
  const item = await getItem(deps, keys.template.item(teamId, id));
  return item ? strip(item) : undefined;
};

/** The id an alias names, if any. */
export const templateIdByAlias = async (deps: Deps, teamId: string, alias: string): Promise<string | undefined> => {
  return (await getItem(deps, keys.template.aliasGuard(teamId, alias)))?.template_id as string | undefined;
};

/**
 * Writes a template (new or changed) with its alias guard in one transaction: the alias stays
 * unique per team, and a changed alias releases the old one.
 */
export const writeTemplate = async (
  deps: Deps,
  next: TemplateItem,
  previousAlias: string | null | undefined,
): Promise<void> => {
  const t = next.team_id;
  const writes: Write[] = [{ put: { ...keys.template.item(t, next.id), type: 'template', ...next } }];
  if (next.alias !== (previousAlias ?? null)) {
    if (next.alias)
      writes.push({
        put: { ...keys.template.aliasGuard(t, next.alias), type: 'template_alias', template_id: next.id },
        when: { exists: false },
      });
    if (previousAlias) writes.push({ delete: keys.template.aliasGuard(t, previousAlias) });
  }
  if (!(await transact(deps, writes)).ok) throw new AliasTaken(`the alias ${next.alias} is already another template's`);
};

/** Deletes a template and its alias guard. */
export const removeTemplate = async (deps: Deps, t: TemplateItem): Promise<void> => {
  await transact(deps, [
    { delete: keys.template.item(t.team_id, t.id) },
    ...(t.alias ? [{ delete: keys.template.aliasGuard(t.team_id, t.alias) }] : []),
  ]);
};

/** A page of a team's templates, newest first. */
export const pageTemplates = async (deps: Deps, teamId: string, page: PageRequest): Promise<Page<TemplateItem>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.template.partition(teamId), prefix: keys.template.prefix },
    page,
  );
  return { items: items.map(strip), hasMore };
};
