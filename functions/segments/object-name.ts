import type { ApiEvent } from '@mailstack/core/http/types';

/** Segments answer as `audience` on the routes that still use that older name (/audiences…). */
export const objectOf = (event: ApiEvent): 'segment' | 'audience' =>
  event.routeKey.includes(' /audiences') ? 'audience' : 'segment';
