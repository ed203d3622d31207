/**
 * Setup file of every test run: each response the local host sends to a test (through the SDK or
 * raw `fetch`) is held against our own OpenAPI document, served at GET /openapi.json. A response
 * the document does not describe fails the test that received it, so the document cannot drift
 * from the code. The mailbox agent API's answers (dashboard origin) are held the same way to its
 * own document, GET /api/mailbox-agent/openapi.json.
 */
import { afterEach, expect, inject } from 'vitest';
import { responseProblems } from './own-document.ts';
import { referenceResponseProblems } from './openapi.ts';
import { ROUTES, isRestRoute, routeMatcher } from '../../functions/routes.ts';

const originalFetch = globalThis.fetch;
const problems: string[] = [];
let document: Promise<Record<string, any>> | undefined;
/** The routes that are not REST (the MCP server): the document leaves them out, so nothing is held against it there. */
const nonRestRoute = routeMatcher(ROUTES.filter((route) => !isRestRoute(route)));
const baseUrl = (): string | undefined => {
  try {
    return inject('local')?.baseUrl;
  } catch {
    return undefined;
  }
};
const dashboardUrl = (): string | undefined => {
  try {
    return inject('local')?.dashboardUrl;
  } catch {
    return undefined;
  }
};
const AGENT_PATHS = '/api/mailbox-agent/';
let agentDocument: Promise<Record<string, any>> | undefined;

/** Our document, read once per test file from the running host. */
export const ownDocument = (): Promise<Record<string, any>> =>
  (document ??= originalFetch(`${baseUrl()}/openapi.json`).then(async (res) => {
    if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  }));

/** The mailbox agent API's document, read once per test file from the running dashboard. */
export const ownAgentDocument = (): Promise<Record<string, any>> =>
  (agentDocument ??= originalFetch(`${dashboardUrl()}${AGENT_PATHS}openapi.json`).then(async (res) => {
    if (!res.ok) throw new Error(`GET ${AGENT_PATHS}openapi.json answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  }));

globalThis.fetch = async function fetchHeldToTheDocument(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const response = await originalFetch(input, init);
  const base = baseUrl();
  const url = new URL(input instanceof Request ? input.url : String(input));
  // The hosts read runs of slashes as one (`//emails`, from a base URL with a trailing slash).
  url.pathname = url.pathname.replace(/\/{2,}/g, '/');
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (`${url.protocol}//${url.host}` === dashboardUrl() && url.pathname.startsWith(AGENT_PATHS)) {
    const text = await response.clone().text();
    problems.push(
      ...responseProblems(
        await ownAgentDocument(),
        method,
        url.pathname,
        response.status,
        response.headers.get('content-type') ?? '',
        text,
      ),
    );
    return response;
  }
  if (!base || `${url.protocol}//${url.host}` !== base) return response;
  if (nonRestRoute(method, url.pathname)) return response;
  const text = await response.clone().text();
  problems.push(
    ...responseProblems(
      await ownDocument(),
      method,
      url.pathname,
      response.status,
      response.headers.get('content-type') ?? '',
      text,
    ),
  );
  // And to the reference API's schema for the same operation, where it has one.
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      problems.push(...referenceResponseProblems(method, url.pathname, response.status, JSON.parse(text)));
    } catch {
      /* not JSON: the document check reports it */
    }
  }
  return response;
};

afterEach(() => {
  const found = problems.splice(0);
  expect(found, 'responses that GET /openapi.json does not describe').toEqual([]);
});
