import { cancelEmail } from './cancel-email.ts';
import { getEmailOf } from './get-email.ts';
import type { Caller } from '../caller.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems, queryAll } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { PRE_SEND_STATUSES, type EmailItem } from './email.ts';

/** Deletes an email record and its attachment chunks (our addition over the reference API). */
export const deleteEmail = async (deps: Deps, caller: Caller, id: string): Promise<EmailItem> => {
  const e = await getEmailOf(deps, caller, id);
  const teamId = caller.team.id;
  if (PRE_SEND_STATUSES.includes(e.status))
    await cancelEmail(deps, caller, id).catch((error) => {
      if (!(error instanceof ApiError)) throw error;
    });
  const parts = await queryAll(deps, { pk: keys.email.item(teamId, id).pk, project: ['pk', 'sk'] });
  await batchWriteItems(deps, { delete: parts.map((k) => ({ pk: k.pk, sk: k.sk })) });
  return e;
};
