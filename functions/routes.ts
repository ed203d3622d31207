/**
 * The route manifest: every HTTP route of the API, read by the CDK API construct and by the local
 * server, so the cloud and local route tables cannot drift. Each route belongs to a resource area;
 * an area is one Lambda whose entry (`functions/<area>/index.ts`) dispatches by route key.
 */
export interface RouteEntry {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** API Gateway path template, `{name}` for a parameter. */
  readonly path: string;
  /** The resource area (one Lambda). */
  readonly area: Area;
}

/** The resource areas, one Lambda each. */
export const AREAS = ['domains', 'usage', 'emails', 'provider-events', 'contacts', 'segments', 'contact-properties', 'topics', 'suppressions', 'preferences', 'openapi', 'api-keys'] as const;
export type Area = (typeof AREAS)[number];

const r = (method: RouteEntry['method'], path: string, area: Area): RouteEntry => ({ method, path, area });

/** Every route. */
export const ROUTES: readonly RouteEntry[] = [
  r('POST', '/domains', 'domains'),
  r('GET', '/domains', 'domains'),
  r('GET', '/domains/{id}', 'domains'),
  r('PATCH', '/domains/{id}', 'domains'),
  r('DELETE', '/domains/{id}', 'domains'),
  r('POST', '/domains/{id}/verify', 'domains'),
  r('GET', '/usage', 'usage'),
  r('POST', '/emails', 'emails'),
  r('POST', '/emails/batch', 'emails'),
  r('GET', '/emails', 'emails'),
  r('GET', '/emails/{id}', 'emails'),
  r('PATCH', '/emails/{id}', 'emails'),
  r('POST', '/emails/{id}/cancel', 'emails'),
  r('DELETE', '/emails/{id}', 'emails'),
  r('POST', '/provider-events/ses', 'provider-events'),
  r('POST', '/contacts', 'contacts'),
  r('GET', '/contacts', 'contacts'),
  r('GET', '/contacts/{id}', 'contacts'),
  r('PATCH', '/contacts/{id}', 'contacts'),
  r('DELETE', '/contacts/{id}', 'contacts'),
  r('POST', '/contacts/batch', 'contacts'),
  r('POST', '/contacts/batch/get', 'contacts'),
  r('POST', '/contacts/batch/remove', 'contacts'),
  r('GET', '/contacts/{id}/segments', 'contacts'),
  r('POST', '/contacts/{id}/segments/{segment_id}', 'contacts'),
  r('DELETE', '/contacts/{id}/segments/{segment_id}', 'contacts'),
  r('GET', '/contacts/{id}/topics', 'contacts'),
  r('PATCH', '/contacts/{id}/topics', 'contacts'),
  r('POST', '/contacts/{id}/preferences-link', 'contacts'),
  r('POST', '/audiences/{id}/contacts', 'contacts'),
  r('GET', '/audiences/{id}/contacts', 'contacts'),
  r('GET', '/segments/{id}/contacts', 'contacts'),
  r('GET', '/audiences/{id}/contacts/{contact_id}', 'contacts'),
  r('PATCH', '/audiences/{id}/contacts/{contact_id}', 'contacts'),
  r('DELETE', '/audiences/{id}/contacts/{contact_id}', 'contacts'),
  r('POST', '/segments', 'segments'),
  r('GET', '/segments', 'segments'),
  r('GET', '/segments/{id}', 'segments'),
  r('DELETE', '/segments/{id}', 'segments'),
  r('POST', '/audiences', 'segments'),
  r('GET', '/audiences', 'segments'),
  r('GET', '/audiences/{id}', 'segments'),
  r('DELETE', '/audiences/{id}', 'segments'),
  r('PATCH', '/segments/{id}', 'segments'),
  r('POST', '/contact-properties', 'contact-properties'),
  r('GET', '/contact-properties', 'contact-properties'),
  r('GET', '/contact-properties/{id}', 'contact-properties'),
  r('PATCH', '/contact-properties/{id}', 'contact-properties'),
  r('DELETE', '/contact-properties/{id}', 'contact-properties'),
  r('POST', '/topics', 'topics'),
  r('GET', '/topics', 'topics'),
  r('GET', '/topics/{id}', 'topics'),
  r('PATCH', '/topics/{id}', 'topics'),
  r('DELETE', '/topics/{id}', 'topics'),
  r('POST', '/suppressions', 'suppressions'),
  r('GET', '/suppressions', 'suppressions'),
  r('GET', '/suppressions/{id}', 'suppressions'),
  r('DELETE', '/suppressions/{id}', 'suppressions'),
  r('POST', '/suppressions/batch/add', 'suppressions'),
  r('POST', '/suppressions/batch/remove', 'suppressions'),
  r('GET', '/preferences/{token}', 'preferences'),
  r('POST', '/preferences/{token}', 'preferences'),
  r('GET', '/unsubscribe/{token}', 'preferences'),
  r('POST', '/unsubscribe/{token}', 'preferences'),
  r('GET', '/openapi.json', 'openapi'),
  r('POST', '/api-keys', 'api-keys'),
];

/** The API Gateway route key of a route ("POST /domains/{id}"). */
export const routeKey = (route: RouteEntry): string => `${route.method} ${route.path}`;
