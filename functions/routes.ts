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
export const AREAS = ['domains', 'usage', 'emails', 'provider-events'] as const;
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
];

/** The API Gateway route key of a route ("POST /domains/{id}"). */
export const routeKey = (route: RouteEntry): string => `${route.method} ${route.path}`;
