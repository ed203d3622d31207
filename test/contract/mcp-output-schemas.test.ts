import { describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOOLS } from '../../functions/mcp/tools/index.ts';
import { TOOL_SCOPES, type RouteTool } from '../../functions/mcp/tool.ts';
import { jsonSchemaOf } from '@mailstack/core/http/openapi';
import { MAILBOX_MCP_TOOLS } from '../../functions/mcp/mailbox-tools/index.ts';
import { local } from '../support/local.ts';
import { agentMailbox, newDraft } from '../support/mailboxes.ts';
import { mcpHarness } from '../support/mcp.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const mcp = mcpHarness();

type Listed = Awaited<ReturnType<Client['listTools']>>['tools'];
type CallResult = Awaited<ReturnType<Client['callTool']>>;

/** Each listed tool's output schema, compiled by ajv (JSON Schema 2020-12, MCP's default dialect); a tool without one fails here. */
const validatorsOf = (tools: Listed): Map<string, ValidateFunction> => {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  return new Map(
    tools.map((tool) => {
      expect(tool.outputSchema, `${tool.name} declares no outputSchema`).toBeDefined();
      expect(tool.outputSchema!.type, tool.name).toBe('object');
      return [tool.name, ajv.compile(tool.outputSchema!)];
    }),
  );
};

/**
 * A success checked against its tool's output schema: `structuredContent` validates, and the
 * text content (for clients that read text) is the same JSON.
 */
const holds = (validators: Map<string, ValidateFunction>, name: string, result: CallResult): any => {
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  const validate = validators.get(name)!;
  expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  expect(text.includes('UNTRUSTED') ? result.structuredContent : JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent;
};

describe('MCP tool output schemas', () => {
  it("the hosted server: every tool declares an object outputSchema (its REST route's answer schema), and successes are structuredContent that validates against it", async () => {
    // Prepare
    const agent = await mcp.signIn([...TOOL_SCOPES]);
    const { tools } = await agent.client.listTools();
    const validators = validatorsOf(tools);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      holds(validators, name, await agent.client.callTool({ name, arguments: args }));

    // A route tool's schema is its REST route's answer schema, the one GET /openapi.json describes.
    const routeTools = TOOLS.filter((t): t is RouteTool => 'handler' in t);
    expect(routeTools.length).toBeGreaterThan(70);
    for (const t of routeTools)
      expect(t.outputSchema, t.name).toEqual({ ...jsonSchemaOf(t.handler.route.response), type: 'object' });

    // Act and assess: one call of each kind of answer (created, read, listed, updated, deleted, batches, usage, mailboxes).
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    const sent = await call('send_email', {
      from: agent.from,
      to: ['delivered@resend.dev'],
      subject: 'Structured',
      text: 'Hello',
    });
    expect(await call('get_email', { id: sent.id })).toMatchObject({
      object: 'email',
      id: sent.id,
      subject: 'Structured',
    });
    await call('list_emails');
    await call('send_batch_emails', {
      emails: [{ from: agent.from, to: 'delivered@resend.dev', subject: 'one', text: 'x' }],
    });
    await call('list_domains');
    await call('get_domain', { id: agent.domainId });
    await call('get_usage');
    await call('get_email_metrics', { dimensions: 'period,domain', metrics: 'sent,delivery_rate' });
    await call('list_logs');
    const contact = await call('create_contact', { email: 'structured@example.com', first_name: 'Ada' });
    await call('get_contact', { id: contact.id });
    await call('update_contact', { id: contact.id, last_name: 'Lovelace' });
    await call('list_contacts');
    await call('batch_get_contacts', { contacts: [{ id: contact.id }] });
    const segment = await call('create_segment', { name: 'Structured' });
    await call('get_segment', { id: segment.id });
    await call('list_segments');
    await call('add_contact_to_segment', { id: contact.id, segment_id: segment.id });
    const topic = await call('create_topic', { name: 'News', default_subscription: 'opt_in' });
    await call('list_topics');
    await call('get_topic', { id: topic.id });
    await call('add_suppression', { email: 'gone@example.com' });
    await call('list_suppressions');
    const template = await call('create_template', { name: 'Welcome', html: '<p>Hi</p>' });
    await call('get_template', { id: template.id });
    await call('list_templates');
    const webhook = await call('create_webhook', { endpoint: 'http://127.0.0.1:9/hook', events: ['email.sent'] });
    await call('get_webhook', { id: webhook.id });
    await call('list_broadcasts');
    await call('list_received_emails');
    await call('list_mailboxes');
    await call('delete_contact', { id: contact.id });
    await call('delete_segment', { id: segment.id });

    // The schemas can refuse: an email whose id is not a string, a list without its envelope.
    const email = await call('get_email', { id: sent.id });
    expect(validators.get('get_email')!({ ...email, id: 42 })).toBe(false);
    expect(validators.get('list_emails')!({ data: [] })).toBe(false);
  }, 60_000);

  it("the mailbox endpoint: each of its four tools declares the mailbox agent API's answer schema, and its successes validate against it", async () => {
    // Prepare
    const t = await agentMailbox();
    const client = new Client({ name: 'output-schemas', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${local().baseUrl}/mcp/${t.m.id}`), {
        requestInit: { headers: { authorization: `Bearer ${t.sendKey}` } },
      }),
    );
    const { tools } = await client.listTools();
    const validators = validatorsOf(tools);
    const call = async (name: string, args: Record<string, unknown>) =>
      holds(validators, name, await client.callTool({ name, arguments: args }));

    // Act
    const saved = await call('mailbox_save_draft', newDraft({ subject: 'Structured draft' }));
    const read = await call('mailbox_read_message', { id: saved.id });
    const listed = await call('mailbox_list_messages', { folder: 'drafts' });
    const sent = await call('mailbox_send_draft', { id: saved.id, expectedRevision: saved.revision });

    // Assess
    expect(tools.map((tool) => tool.name)).toEqual(MAILBOX_MCP_TOOLS.map((tool) => tool.name));
    expect(read).toMatchObject({ id: saved.id, subject: 'Structured draft' });
    expect(listed.items.map((i: any) => i.id)).toContain(saved.id);
    expect(sent).toMatchObject({ status: 'admitted' });
    expect(validators.get('mailbox_send_draft')!({ ...sent, status: 'teleported' })).toBe(false);
    await client.close();
  });
});
