import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { EmailItem } from './email.ts';

/** Reads a team's email; another team's id answers 404. */
export const getEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const item = await getItem(deps, keys.email.item(teamId, id));
  if (!item) throw notFound('Email');
  return item as EmailItem;
};
