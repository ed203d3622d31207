import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAILBOX_AGENT_ERROR_STATUS } from '@mailstack/core/domain/mailboxes/agent-error';
import { local } from '../support/local.ts';
import { agentMailbox } from '../support/mailboxes.ts';

/**
 * Hostile input on the mailbox agent API (generated, like the email API's test over its route
 * manifest): any query, any JSON or broken body, fields of the right names with wrong values.
 * Every answer is a success or an error of the mailbox agent's catalog with its status: never a 5xx.
 */
const RUNS = 120;

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(-1, 0, 1, 1e308, -1e-300, 2 ** 53, '', '0', 'null', '..', '\u0000', 'a'.repeat(5000)),
  fc.uuid(),
  fc.array(fc.oneof(fc.emailAddress(), fc.string(), fc.integer()), { maxLength: 25 }),
);

/** A draft body: the API's field names, each present or not, with values good and bad. */
const draftBody = fc
  .record(
    {
      id: anyValue,
      expectedRevision: anyValue,
      to: anyValue,
      subject: anyValue,
      text: anyValue,
      sourceItemId: anyValue,
      retainedAttachments: fc.oneof(anyValue, fc.array(fc.integer({ min: -2, max: 12 }), { maxLength: 12 })),
      uploads: fc.oneof(
        anyValue,
        fc.array(
          fc.record(
            { filename: anyValue, base64: fc.oneof(anyValue, fc.base64String({ maxLength: 400 })) },
            { requiredKeys: [] },
          ),
          { maxLength: 12 },
        ),
      ),
    },
    { requiredKeys: [] },
  )
  .map((b) => JSON.stringify(b));

const body = fc.oneof(
  draftBody,
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('[]', '"s"', '5', 'null', '{', '{"id":', '\u0000', '', '['.repeat(300) + ']'.repeat(300)),
  fc.record({ id: anyValue, expectedRevision: anyValue }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
);

const folder = fc.oneof(
  { arbitrary: fc.constantFrom('inbox', 'drafts', 'sent', 'Inbox', 'spam', '', '-1'), weight: 4 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
);
const id = fc.oneof(fc.uuid(), fc.constantFrom('', '0', '..', 'null'), fc.string({ maxLength: 200 }));
/** A folder, an id, both, or anything: each shape often enough to reach every branch. */
const query = fc
  .oneof(
    { arbitrary: folder.map((f) => ({ folder: f })), weight: 3 },
    { arbitrary: id.map((i) => ({ id: i })), weight: 3 },
    { arbitrary: fc.record({ folder, id }), weight: 1 },
    {
      arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 50 }), { maxKeys: 3 }),
      weight: 1,
    },
  )
  .map((q) => new URLSearchParams(q).toString());

describe('hostile input on the mailbox agent API', () => {
  it.each([
    ['GET', '/items'],
    ['POST', '/drafts'],
    ['POST', '/send'],
    ['PUT', '/drafts'],
  ])(
    'answers %s %s with the mailbox agent catalog, never a 5xx',
    async (method, path) => {
      const t = await agentMailbox();
      await fc.assert(
        fc.asyncProperty(query, body, async (q, b) => {
          const res = await fetch(`${local().dashboardUrl}/api/mailbox-agent${path}${q ? `?${q}` : ''}`, {
            method,
            headers: { authorization: `Bearer ${t.sendKey}`, 'content-type': 'application/json' },
            ...(method === 'GET' ? {} : { body: b }),
          });
          const what = `${method} ${path}?${q.slice(0, 120)} body ${b.slice(0, 200)}`;
          expect(res.status, what).toBeLessThan(500);
          const answer = (await res.json()) as { name?: string };
          if (res.status >= 400) {
            expect(Object.hasOwn(MAILBOX_AGENT_ERROR_STATUS, answer.name ?? ''), `${what}: ${answer.name}`).toBe(true);
            expect(MAILBOX_AGENT_ERROR_STATUS[answer.name as keyof typeof MAILBOX_AGENT_ERROR_STATUS], what).toBe(
              res.status,
            );
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
    120_000,
  );
});
