import type { Deps } from '../../runtime/deps.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import { deleteDraft, readBroadcast } from '../../table/broadcasts.ts';

/** Deletes a draft; a sent broadcast answers 400 invalid_parameter (cancel it instead). */
export const deleteBroadcast = async (deps: Deps, teamId: string, id: string): Promise<void> => {
  const b = await readBroadcast(deps, teamId, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  if (b.status !== 'draft' || !(await deleteDraft(deps, teamId, id))) {
    throw new ApiError(
      'invalid_parameter',
      `Only draft broadcasts can be deleted; this one is no longer a draft (sent, scheduled or canceled). Cancel it with POST /broadcasts/${id}/cancel.`,
    );
  }
};
