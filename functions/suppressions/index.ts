import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as addSuppression } from './add-suppression.ts';
import { handler as listSuppressions } from './list-suppressions.ts';
import { handler as getSuppression } from './get-suppression.ts';
import { handler as removeSuppression } from './remove-suppression.ts';
import { handler as batchAddSuppressions } from './batch-add-suppressions.ts';
import { handler as batchRemoveSuppressions } from './batch-remove-suppressions.ts';

/** The suppressions Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('suppressions', {
    'add-suppression': addSuppression,
    'list-suppressions': listSuppressions,
    'get-suppression': getSuppression,
    'remove-suppression': removeSuppression,
    'batch-add-suppressions': batchAddSuppressions,
    'batch-remove-suppressions': batchRemoveSuppressions,
  }),
);
