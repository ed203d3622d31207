import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as addSuppression } from './add-suppression.ts';
import { handler as listSuppressions } from './list-suppressions.ts';
import { handler as getSuppression } from './get-suppression.ts';
import { handler as removeSuppression } from './remove-suppression.ts';
import { handler as batchAddSuppressions } from './batch-add-suppressions.ts';
import { handler as batchRemoveSuppressions } from './batch-remove-suppressions.ts';

/** The suppressions Lambda. */
export const handler = dispatch({
  'POST /suppressions': addSuppression,
  'GET /suppressions': listSuppressions,
  'GET /suppressions/{id}': getSuppression,
  'DELETE /suppressions/{id}': removeSuppression,
  'POST /suppressions/batch/add': batchAddSuppressions,
  'POST /suppressions/batch/remove': batchRemoveSuppressions,
});
