import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { absorbPathIds, pathParameters, UNSERVED_PATH_WORDS } from '@mailstack/core/http/path-ids';
import { ROUTES } from '../../../functions/routes.ts';

const reference = parse(
  readFileSync(resolve(import.meta.dirname, '../../fixtures/resend-openapi/resend.yaml'), 'utf8'),
);

describe('path identifiers in bodies', () => {
  it('names the resource of each parameter from the collection before it', () => {
    expect(pathParameters('/audiences/{id}/contacts/{contact_id}')).toEqual([
      { name: 'id', resource: 'audience' },
      { name: 'contact_id', resource: 'contact' },
    ]);
    expect(pathParameters('/contact-properties/{id}')).toEqual([{ name: 'id', resource: 'contact_property' }]);
  });

  it('removes identifiers equal to the path (addresses case-insensitively) and keeps every other field', () => {
    expect(
      absorbPathIds('/contacts/{id}', { id: 'Jane@Example.com' }, { email: 'jane@example.com', first_name: 'J' }),
    ).toEqual({ first_name: 'J' });
    expect(
      absorbPathIds(
        '/audiences/{id}/contacts/{contact_id}',
        { id: 'a', contact_id: 'c' },
        { audience_id: 'a', id: 'c', x: 1 },
      ),
    ).toEqual({ x: 1 });
    expect(absorbPathIds('/contacts/{id}/topics', { id: 'c' }, [{ id: 't' }])).toEqual([{ id: 't' }]);
  });

  it('refuses a different value naming the field, both values and the resource', () => {
    expect(() => absorbPathIds('/domains/{id}', { id: 'd1' }, { id: 'd2' })).toThrow(
      /`id` in the body \("d2"\) does not match the domain of the path \("d1"\)/,
    );
    // An id is compared exactly: only addresses ignore case.
    expect(() => absorbPathIds('/topics/{id}', { id: 'abc' }, { id: 'ABC' })).toThrow(/does not match/);
    // `email` aliases a contact only when the path names it by address.
    expect(absorbPathIds('/contacts/{id}', { id: 'uuid-1' }, { email: 'a@b.c' })).toEqual({ email: 'a@b.c' });
  });

  it('reserves every literal word the reference, an official SDK or the manifest puts where a manifest route takes a parameter', () => {
    // Paths an official SDK of another language calls that the reference spells otherwise (resend-php: Domains/Claim.php).
    const sdkPaths = ['/domains/claims', '/domains/{domain_id}/claims', '/domains/{domain_id}/claims/verify'];
    const segments = (p: string) => p.split('/').filter(Boolean);
    const isParam = (s: string) => s.startsWith('{');
    const words = new Set<string>();
    for (const path of [...Object.keys(reference.paths), ...sdkPaths, ...ROUTES.map((r) => r.path)]) {
      const a = segments(path);
      for (const route of ROUTES) {
        const b = segments(route.path);
        if (a.length !== b.length) continue;
        if (a.some((s, i) => !isParam(s) && !isParam(b[i]!) && s !== b[i])) continue;
        a.forEach((s, i) => {
          if (!isParam(s) && isParam(b[i]!)) words.add(s);
        });
      }
    }
    expect([...UNSERVED_PATH_WORDS].sort()).toEqual([...words].sort());
  });
});
