import { describe, expect, it } from 'vitest';
import type { GenericSchema } from 'valibot';
import { newTeam } from '../support/local.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import { fieldLimits } from '../../functions/dashboard/view.ts';
import { CreateBroadcastRequest } from '@mailstack/core/schemas/broadcasts';
import {
  CreateContactPropertyRequest,
  CreateContactRequest,
  CreateSegmentRequest,
} from '@mailstack/core/schemas/contacts';
import { CreateDomainRequest } from '@mailstack/core/schemas/domains';
import { CreateTemplateRequest } from '@mailstack/core/schemas/templates';
import { CreateTopicRequest } from '@mailstack/core/schemas/topics';
import { CreateWebhookRequest, RotateWebhookRequest, UpdateWebhookRequest } from '@mailstack/core/schemas/webhooks';

/** The attributes that limit an input's value. */
const LIMIT_ATTRIBUTES = ['maxlength', 'minlength', 'pattern', 'min', 'max'] as const;

/** The limit attributes of the (first) input named `name` in a page, as the browser reads them. */
const inputLimits = (page: string, name: string): Record<string, string> => {
  const tag = [...page.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).find((t) => t.includes(` name="${name}"`));
  if (!tag) throw new Error(`no input named ${name} on the page`);
  const attributes: Record<string, string> = {};
  for (const [, key, value] of tag.matchAll(/\s([a-z-]+)="([^"]*)"/g)) {
    if ((LIMIT_ATTRIBUTES as readonly string[]).includes(key!))
      attributes[key!] = value!
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&');
  }
  return attributes;
};

/** A schema's limits as the attributes a form should carry (strings, as HTML has them). */
const expected = (schema: GenericSchema, ...path: string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(fieldLimits(schema, ...path)).map(([k, v]) => [k, String(v)]));

/**
 * Every dashboard form field that is also a field of an API request body refuses exactly what the
 * API refuses: its maxlength, minlength, pattern, min and max are the body schema's, read from the
 * page as served (a limit typed into a page by hand, or changed in the schema alone, fails here).
 */
describe('dashboard form limits are the API schemas', () => {
  it('contacts, segments, topics, contact properties, templates, broadcasts, domains and webhooks carry the API limits', async () => {
    const t = await newTeam();
    const session = await signInOverHttp((await personIn(t.team.id, 'owner')).link);
    const base = `/t/${t.team.id}`;
    const page = async (path: string) => {
      const res = await session.get(`${base}${path}`);
      expect(res.status, path).toBe(200);
      return res.text();
    };
    const webhook = await t.resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hook', events: ['email.sent'] });
    expect(webhook.error).toBeNull();

    /** [page, input name, schema, path in the schema] */
    const fields: [string, string, GenericSchema, ...string[]][] = [
      ['/contacts', 'email', CreateContactRequest, 'email'],
      ['/contacts', 'first_name', CreateContactRequest, 'first_name'],
      ['/contacts', 'last_name', CreateContactRequest, 'last_name'],
      ['/segments', 'name', CreateSegmentRequest, 'name'],
      ['/topics', 'name', CreateTopicRequest, 'name'],
      ['/properties', 'key', CreateContactPropertyRequest, 'key'],
      ['/templates/new', 'name', CreateTemplateRequest, 'name'],
      ['/templates/new', 'subject', CreateTemplateRequest, 'subject'],
      ['/templates/new', 'alias', CreateTemplateRequest, 'alias'],
      ['/templates/new', 'var_key_0', CreateTemplateRequest, 'variables', 'key'],
      ['/templates/new', 'var_key_1', CreateTemplateRequest, 'variables', 'key'],
      ['/broadcasts/new', 'name', CreateBroadcastRequest, 'name'],
      ['/broadcasts/new', 'subject', CreateBroadcastRequest, 'subject'],
      ['/broadcasts/new', 'preview_text', CreateBroadcastRequest, 'preview_text'],
      ['/domains', 'name', CreateDomainRequest, 'name'],
      ['/webhooks', 'endpoint', CreateWebhookRequest, 'endpoint'],
      [`/webhooks/${webhook.data!.id}`, 'endpoint', UpdateWebhookRequest, 'endpoint'],
      [`/webhooks/${webhook.data!.id}`, 'overlap_hours', RotateWebhookRequest, 'overlap_hours'],
    ];
    const pages = new Map<string, string>();
    for (const [path, name, schema, ...schemaPath] of fields) {
      if (!pages.has(path)) pages.set(path, await page(path));
      const limits = expected(schema, ...schemaPath);
      expect(Object.keys(limits).length, `${schemaPath.join('.')} has limits in its schema`).toBeGreaterThan(0);
      expect(inputLimits(pages.get(path)!, name), `${path} input ${name}`).toEqual(limits);
    }
  });
});
