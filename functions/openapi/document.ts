import { buildOpenApi, type DescribedRoute } from '@mailstack/core/http/openapi';
import type { RouteDeclaration } from '@mailstack/core/http/api-route';
import { REST_ROUTES, isRestRoute, routeKey, type RouteEntry } from '../routes.ts';
import { AREA_ENTRIES } from './areas.ts';
import { COMPONENT_SCHEMAS, REQUEST_SCHEMAS } from './components.ts';

/** The declaration of a manifest route, read from its area's entry; undefined when the entry does not dispatch it. */
export const declarationOf = (entry: RouteEntry): RouteDeclaration | undefined =>
  isRestRoute(entry) ? AREA_ENTRIES[entry.area].routes[routeKey(entry)]?.route : undefined;

/** Every REST route of the manifest with its declaration (routes without one are left out; a test names them). */
const describedRoutes = (routes: readonly RouteEntry[] = REST_ROUTES): DescribedRoute[] =>
  routes.flatMap((entry) => {
    const route = declarationOf(entry);
    return route ? [{ method: entry.method, path: entry.path, area: entry.area, route }] : [];
  });

/** The OpenAPI 3.1 description of the whole API, generated from the manifest and the route declarations. */
export const openApiDocument = (serverUrl: string) =>
  buildOpenApi(describedRoutes(), { serverUrl, components: COMPONENT_SCHEMAS, requests: REQUEST_SCHEMAS });
