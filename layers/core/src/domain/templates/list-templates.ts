import type { Deps } from '../../runtime/deps.ts';
import type { Page, PageRequest } from '../paging.ts';
import { pageTemplates, type TemplateItem } from '../../table/templates.ts';

/** A page of the team's templates. */
export const listTemplates = (deps: Deps, teamId: string, page: PageRequest): Promise<Page<TemplateItem>> =>
  pageTemplates(deps, teamId, page);
