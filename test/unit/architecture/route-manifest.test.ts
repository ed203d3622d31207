import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS, ROUTES, areaRoutes, routeKey } from '../../../functions/routes.ts';

const functionsDir = join(import.meta.dirname, '..', '..', '..', 'functions');

describe('the route manifest is the only dispatch source', () => {
  it("names, for every route, a handler module that exists in the route's area", () => {
    const missing = ROUTES.filter(
      (r) => !existsSync(join(functionsDir, `${r.handler}.ts`)) || !r.handler.startsWith(`${r.area}/`),
    );
    expect(missing.map(routeKey)).toEqual([]);
  });

  it('leaves no handler module in an area that no route names (no copies for aliases)', () => {
    const named = new Set<string>(ROUTES.map((r) => r.handler));
    const orphans = AREAS.flatMap((area) =>
      readdirSync(join(functionsDir, area))
        // A route handler module is one that exports a handler; helpers beside them are not.
        .filter(
          (f) =>
            f.endsWith('.ts') &&
            f !== 'index.ts' &&
            /export const handler = /.test(readFileSync(join(functionsDir, area, f), 'utf8')),
        )
        .map((f) => `${area}/${f.slice(0, -3)}`)
        .filter((h) => !named.has(h)),
    );
    expect(orphans).toEqual([]);
  });

  it("builds each area's dispatch table from the manifest, and refuses an entry missing a named handler", () => {
    for (const area of AREAS) {
      const routes = ROUTES.filter((r) => r.area === area);
      const handlers = Object.fromEntries(
        routes.map((r) => [r.handler.slice(area.length + 1), async () => ({ statusCode: 200 })]),
      );
      expect(Object.keys(areaRoutes(area, handlers)).sort(), area).toEqual(routes.map(routeKey).sort());
    }
    expect(() => areaRoutes('usage', {})).toThrow(/does not provide get-usage/);
  });

  it('points the audience aliases at the segment handlers rather than at copies', () => {
    const handlerOf = (key: string) => ROUTES.find((r) => routeKey(r) === key)?.handler;
    expect(handlerOf('GET /audiences')).toBe(handlerOf('GET /segments'));
    expect(handlerOf('GET /audiences/{id}/contacts')).toBe(handlerOf('GET /segments/{id}/contacts'));
  });
});
