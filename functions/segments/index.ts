import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as createSegment } from './create-segment.ts';
import { handler as listSegments } from './list-segments.ts';
import { handler as getSegment } from './get-segment.ts';
import { handler as deleteSegment } from './delete-segment.ts';
import { handler as createAudience } from './create-audience.ts';
import { handler as listAudiences } from './list-audiences.ts';
import { handler as getAudience } from './get-audience.ts';
import { handler as deleteAudience } from './delete-audience.ts';
import { handler as updateSegment } from './update-segment.ts';

/** The segments Lambda. */
export const handler = dispatch({
  'POST /segments': createSegment,
  'GET /segments': listSegments,
  'GET /segments/{id}': getSegment,
  'DELETE /segments/{id}': deleteSegment,
  'POST /audiences': createAudience,
  'GET /audiences': listAudiences,
  'GET /audiences/{id}': getAudience,
  'DELETE /audiences/{id}': deleteAudience,
  'PATCH /segments/{id}': updateSegment,
});
