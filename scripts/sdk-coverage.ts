/**
 * SDK coverage: every public method of the official `resend` SDK (the devDependency), the
 * request it sends, and whether this service serves it, refuses it on purpose, or does not serve
 * it yet, judged from our OpenAPI document and the table of deliberate differences.
 *
 * `npm run sdk-coverage` rewrites the table in docs/sdks.md between its markers from the running code's
 * document; `test/contract/sdk-coverage.test.ts` fails while that file differs, so a route that
 * starts serving an SDK method flips its row by re-running the script, never by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resend } from 'resend';
import { UNSERVED_PATH_WORDS } from '@mailstack/core/http/path-ids';
import { openApiDocument } from '../functions/openapi/document.ts';
import { REFERENCE_DIFFERENCES } from '../functions/openapi/reference-differences.ts';

type Json = Record<string, any>;
export type Coverage = 'served' | 'refused' | 'not yet' | 'client-side';
export interface SdkMethod {
  /** `contacts.segments.add` */
  readonly method: string;
  /** `POST /contacts/{id}/segments/{id}`, or empty for a client-side method. */
  readonly request: string;
  readonly coverage: Coverage;
  /** The error a refused method answers, and why. */
  readonly note: string;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COVERAGE_DOC = resolve(ROOT, 'docs/sdks.md');
const START = '<!-- sdk-coverage:start (npm run sdk-coverage) -->';
const END = '<!-- sdk-coverage:end -->';

/** The SDK's private members, as its type declarations mark them (helpers, not API methods). */
const SDK_DIST = dirname(createRequire(import.meta.url).resolve('resend'));
const sdkVersion = (): string => JSON.parse(readFileSync(resolve(SDK_DIST, '../package.json'), 'utf8')).version;

const privateMembers = (): Set<string> => {
  const types = readFileSync(resolve(SDK_DIST, 'index.d.mts'), 'utf8');
  return new Set([...types.matchAll(/^\s*private (\w+)/gm)].map((m) => m[1]!));
};

/** Every public method of every namespace of a Resend client (`audiences` is `segments` itself, listed once). */
export const sdkMethodNames = (client: Json = new Resend('re_coverage')): string[] => {
  const hidden = privateMembers();
  const out: string[] = [];
  const seen = new Set<object>();
  const walk = (obj: Json, prefix: string) => {
    if (seen.has(obj)) return;
    seen.add(obj);
    if (prefix) {
      const names = new Set<string>();
      for (
        let proto = Object.getPrototypeOf(obj);
        proto && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto)
      ) {
        for (const name of Object.getOwnPropertyNames(proto))
          if (name !== 'constructor' && !hidden.has(name) && typeof obj[name] === 'function') names.add(name);
      }
      out.push(...[...names].map((n) => `${prefix}${n}`));
    }
    for (const [key, value] of Object.entries(obj)) {
      if (
        key !== 'resend' &&
        value &&
        typeof value === 'object' &&
        !(value instanceof Headers) &&
        !Array.isArray(value)
      )
        walk(value, `${prefix}${key}.`);
    }
  };
  walk(client, '');
  return out;
};

const PLACEHOLDER = 'ph_id';
const ARGUMENTS: unknown[] = [
  {
    id: PLACEHOLDER,
    email: PLACEHOLDER,
    name: 'n',
    from: 'a@example.com',
    to: 'b@example.com',
    subject: 's',
    text: 't',
    type: 'sent',
    segmentId: PLACEHOLDER,
    contactId: PLACEHOLDER,
    webhookId: PLACEHOLDER,
    eventId: PLACEHOLDER,
    emailId: PLACEHOLDER,
    inboxId: PLACEHOLDER,
    threadId: PLACEHOLDER,
    draftId: PLACEHOLDER,
    labelId: PLACEHOLDER,
    automationId: PLACEHOLDER,
    runId: PLACEHOLDER,
    steps: [],
    connections: [],
  },
  PLACEHOLDER,
];

/**
 * Calls an SDK method with stand-in arguments (an options object, then a bare id) until it sends
 * a request; answers the request (`POST /contacts/{id}/segments/{id}`, empty when it sends none)
 * and the SDK's result. `fetchImpl` answers in place of the network when given.
 */
export const invokeSdkMethod = async (
  client: Json,
  method: string,
  fetchImpl?: typeof fetch,
): Promise<{ request: string; result: any }> => {
  const path = method.split('.');
  const name = path.pop()!;
  const target = path.reduce((o, k) => o[k], client);
  const original = globalThis.fetch;
  const send = fetchImpl ?? original;
  let seen: string | undefined;
  let result: any;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    seen ??= `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : String(input)).pathname}`;
    return send(input, init);
  }) as typeof fetch;
  try {
    for (const arg of ARGUMENTS) {
      try {
        result = await target[name](arg, arg, arg);
      } catch {
        /* the SDK refused the stand-in arguments client-side: try the next */
      }
      if (seen) break;
    }
  } finally {
    globalThis.fetch = original;
  }
  if (!seen) return { request: '', result };
  const [verb, pathname] = seen.split(' ');
  return {
    request: `${verb} ${pathname!
      .split('/')
      .map((s) => (/ph_id|object|^undefined$/.test(decodeURIComponent(s)) ? '{id}' : s))
      .join('/')}`,
    result,
  };
};

const stubFetch = (async () =>
  new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;

const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** Our paths a request's path names, as either host routes it (literal paths first; unserved words never match a parameter). */
const ourPaths = (doc: Json, path: string): string[] => {
  const segments = path.split('/');
  return Object.keys(doc.paths)
    .filter((p) => {
      const own = p.split('/');
      return (
        own.length === segments.length &&
        own.every((s, i) =>
          s.startsWith('{') ? segments[i] === '{id}' || !UNSERVED_PATH_WORDS.has(segments[i]!) : s === segments[i],
        )
      );
    })
    .sort((a, b) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length);
};

/** Our operation for a request, as either host routes it. */
const ourOperation = (doc: Json, request: string): Json | undefined => {
  const [verb, path] = request.split(' ') as [string, string];
  for (const p of ourPaths(doc, path)) if (doc.paths[p][verb.toLowerCase()]) return doc.paths[p][verb.toLowerCase()];
  return undefined;
};

/** What the hosts answer a request no operation of ours takes: 405 when the path serves other methods, else 404. */
const unservedName = (doc: Json, request: string): string =>
  ourPaths(doc, request.split(' ')[1]!).length > 0 ? 'method_not_allowed' : 'not_found';

/** Classifies every SDK method against our document (built from the code when not given). */
export const sdkCoverage = async (doc: Json = openApiDocument('http://127.0.0.1:3000')): Promise<SdkMethod[]> => {
  const client = new Resend('re_coverage') as unknown as Json;
  const rows: SdkMethod[] = [];
  for (const method of sdkMethodNames(client)) {
    const { request } = await invokeSdkMethod(client, method, stubFetch);
    if (!request) {
      rows.push({ method, request, coverage: 'client-side', note: 'Runs in the SDK; sends no request.' });
      continue;
    }
    const operation = ourOperation(doc, request);
    const successes = Object.keys(operation?.responses ?? {}).filter((s) => s.startsWith('2'));
    if (operation && successes.length > 0) {
      rows.push({ method, request, coverage: 'served', note: '' });
      continue;
    }
    const difference = REFERENCE_DIFFERENCES.find((d) =>
      d.operations.some((op) => {
        const [verb, path] = op.split(' ') as [string, string];
        return `${verb} ${shape(path)}` === `${request.split(' ')[0]} ${shape(request.split(' ')[1]!)}`;
      }),
    );
    if (operation) {
      const refusals = Object.entries<Json>(operation.responses).flatMap(([status, r]) =>
        status.startsWith('4') ? (r.content?.['application/json']?.schema?.properties?.name?.enum ?? []) : [],
      );
      const own = refusals.filter(
        (n: string) =>
          ![
            'missing_api_key',
            'invalid_api_key',
            'restricted_api_key',
            'rate_limit_exceeded',
            'validation_error',
            'invalid_payload',
            'payload_too_large',
          ].includes(n),
      );
      rows.push({
        method,
        request,
        coverage: 'refused',
        note: `${own.join(', ')}: ${difference?.summary ?? 'refused on purpose.'}`,
      });
    } else if (difference?.kind === 'deliberate') {
      rows.push({ method, request, coverage: 'refused', note: `${unservedName(doc, request)}: ${difference.summary}` });
    } else {
      rows.push({ method, request, coverage: 'not yet', note: difference?.summary ?? '' });
    }
  }
  return rows;
};

const ICON: Record<Coverage, string> = {
  served: 'served',
  refused: 'refused on purpose',
  'not yet': 'not yet served',
  'client-side': 'client-side',
};

/** The coverage table of docs/sdks.md. */
export const renderCoverage = (rows: readonly SdkMethod[]): string => {
  const count = (c: Coverage) => rows.filter((r) => r.coverage === c).length;
  const lines = [
    START,
    `Generated from the \`resend\` SDK ${sdkVersion()} and this service's OpenAPI document: ${count('served')} methods served, ${count('refused')} refused on purpose, ${count('not yet')} not yet served, ${count('client-side')} client-side.`,
    '',
    '| SDK method | request | status | note |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.method}\` | ${r.request ? `\`${r.request}\`` : ''} | ${ICON[r.coverage]} | ${r.note.replace(/\|/g, '\\|')} |`,
    ),
    END,
  ];
  return lines.join('\n');
};

/** docs/sdks.md's current table (between the markers), or undefined without markers. */
export const readmeCoverage = (text: string = readFileSync(COVERAGE_DOC, 'utf8')): string | undefined => {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  return start < 0 || end < 0 ? undefined : text.slice(start, end + END.length);
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const table = renderCoverage(await sdkCoverage());
  const text = readFileSync(COVERAGE_DOC, 'utf8');
  const current = readmeCoverage(text);
  writeFileSync(
    COVERAGE_DOC,
    current ? text.replace(current, table) : `${text.trimEnd()}\n\n## SDK coverage\n\n${table}\n`,
  );
  console.log('docs/sdks.md: SDK coverage table written');
}
