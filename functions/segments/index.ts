import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createSegment } from './create-segment.ts';
import { handler as listSegments } from './list-segments.ts';
import { handler as getSegment } from './get-segment.ts';
import { handler as deleteSegment } from './delete-segment.ts';
import { handler as updateSegment } from './update-segment.ts';

/** The segments Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('segments', {
    'create-segment': createSegment,
    'list-segments': listSegments,
    'get-segment': getSegment,
    'delete-segment': deleteSegment,
    'update-segment': updateSegment,
  }),
);
