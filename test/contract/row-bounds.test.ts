import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxEntry } from '../support/inbox.ts';
import {
  MAX_ATTACHMENTS,
  MAX_CONTACT_PROPERTIES,
  MAX_CUSTOM_HEADERS,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_REPLY_TO,
  MAX_STORED_BODY_BYTES,
  MAX_SUBJECT_LENGTH,
  MAX_TAGS,
  MAX_TEMPLATE_VARIABLES_BYTES,
} from '../../layers/core/src/limits.ts';

/**
 * Fields kept whole on one table row have bounds checked before storage: past a bound the answer
 * is 422 validation_error naming the field and the limit (never a 500 from the store's 400 KB
 * item limit), and a value at the bound is accepted.
 */

type Res = Awaited<ReturnType<typeof call>>;

const refused = (res: Res, field: RegExp, limit: number) => {
  expect(res.status, JSON.stringify(res.json)).toBe(422);
  expect(res.json).toMatchObject({ name: 'validation_error' });
  expect(res.json.message).toMatch(field);
  expect(res.json.message).toContain(String(limit));
};

const accepted = (res: Res, status = 200) => expect(res.status, JSON.stringify(res.json)).toBe(status);

/** 450 KB of HTML: past DynamoDB's item limit on its own. */
const bigHtml = `<p>${'x'.repeat(450_000)}</p>`;
/** Exactly MAX_STORED_BODY_BYTES of HTML, in 3-byte characters where it can. */
const htmlOfBytes = (bytes: number) =>
  `<p>${'€'.repeat(Math.floor((bytes - 7) / 3))}${'x'.repeat((bytes - 7) % 3)}</p>`;

describe('template bodies and variables', () => {
  it('POST /templates with 450 KB of html, or one byte past the bound, is 422; at the bound it is created', async () => {
    const t = await newTeam();
    refused(
      await call('POST', '/templates', { key: t.secret, body: { name: 'Big', html: bigHtml } }),
      /`html`/,
      MAX_STORED_BODY_BYTES,
    );
    refused(
      await call('POST', '/templates', {
        key: t.secret,
        body: { name: 'Big', html: htmlOfBytes(MAX_STORED_BODY_BYTES + 1) },
      }),
      /`html`/,
      MAX_STORED_BODY_BYTES,
    );
    refused(
      await call('POST', '/templates', {
        key: t.secret,
        body: { name: 'Big', html: '<p>x</p>', text: 'x'.repeat(450_000) },
      }),
      /`text`/,
      MAX_STORED_BODY_BYTES,
    );
    const html = htmlOfBytes(MAX_STORED_BODY_BYTES);
    expect(Buffer.byteLength(html)).toBe(MAX_STORED_BODY_BYTES);
    const made = await call('POST', '/templates', {
      key: t.secret,
      body: { name: 'At the bound', html, text: 'y'.repeat(MAX_STORED_BODY_BYTES) },
    });
    accepted(made, 201);
    expect((await call('GET', `/templates/${made.json.id}`, { key: t.secret })).json.html).toBe(html);
  });

  it('PATCH /templates/{id} with 450 KB of html is 422 and the template keeps its body', async () => {
    const t = await newTeam();
    const made = await call('POST', '/templates', { key: t.secret, body: { name: 'Small', html: '<p>small</p>' } });
    refused(
      await call('PATCH', `/templates/${made.json.id}`, { key: t.secret, body: { html: bigHtml } }),
      /`html`/,
      MAX_STORED_BODY_BYTES,
    );
    expect((await call('GET', `/templates/${made.json.id}`, { key: t.secret })).json.html).toBe('<p>small</p>');
  });

  it('variables whose fallback values add up past the bound are 422', async () => {
    const t = await newTeam();
    const variables = Array.from({ length: 10 }, (_, i) => ({
      key: `list_${i}`,
      type: 'list',
      fallback_value: Array.from({ length: 2000 }, () => 'item'),
    }));
    refused(
      await call('POST', '/templates', { key: t.secret, body: { name: 'Vars', html: '<p>x</p>', variables } }),
      /`variables`/,
      MAX_TEMPLATE_VARIABLES_BYTES,
    );
    accepted(
      await call('POST', '/templates', {
        key: t.secret,
        body: { name: 'Vars', html: '<p>x</p>', variables: variables.slice(0, 2) },
      }),
      201,
    );
  });
});

describe('a subject rendered from a template', () => {
  it("past 998 characters with the send's variables is 422 naming `subject`; within it the email is sent", async () => {
    const t = await sendingTeam();
    const template = await call('POST', '/templates', {
      key: t.secret,
      body: { name: 'T', html: '<p>x</p>', subject: 'Hi {{{name}}} and {{{name}}}', from: t.from },
    });
    accepted(template, 201);
    const send = (name: string) =>
      call('POST', '/emails', {
        key: t.secret,
        body: { to: 'someone@example.com', template: { id: template.json.id, variables: { name } } },
      });
    refused(await send('n'.repeat(40_000)), /`subject`/, MAX_SUBJECT_LENGTH);
    accepted(await send('Ann'));
  });
});

describe("broadcast bodies (copied onto every recipient's email)", () => {
  it('POST and PATCH /broadcasts with 450 KB of html are 422; at the bound the broadcast is created', async () => {
    const t = await sendingTeam();
    const segmentId = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    const base = { segment_id: segmentId, from: t.from, subject: 'News' };
    refused(
      await call('POST', '/broadcasts', { key: t.secret, body: { ...base, html: bigHtml } }),
      /`html`/,
      MAX_STORED_BODY_BYTES,
    );
    refused(
      await call('POST', '/broadcasts', {
        key: t.secret,
        body: { ...base, text: 'x'.repeat(MAX_STORED_BODY_BYTES + 1) },
      }),
      /`text`/,
      MAX_STORED_BODY_BYTES,
    );
    const made = await call('POST', '/broadcasts', {
      key: t.secret,
      body: { ...base, html: htmlOfBytes(MAX_STORED_BODY_BYTES) },
    });
    accepted(made, 201);
    refused(
      await call('PATCH', `/broadcasts/${made.json.id}`, { key: t.secret, body: { html: bigHtml } }),
      /`html`/,
      MAX_STORED_BODY_BYTES,
    );
    expect((await call('GET', `/broadcasts/${made.json.id}`, { key: t.secret })).json.html).toBe(
      htmlOfBytes(MAX_STORED_BODY_BYTES),
    );
  });

  it('a broadcast from a template with variables past the bound is 422', async () => {
    const t = await sendingTeam();
    const segmentId = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    const template = await call('POST', '/templates', {
      key: t.secret,
      body: { name: 'T', html: '<p>{{{greeting}}}</p>', subject: 'S', from: t.from },
    });
    accepted(template, 201);
    const big = { greeting: 'x'.repeat(450_000) };
    refused(
      await call('POST', '/broadcasts', {
        key: t.secret,
        body: { segment_id: segmentId, template: { id: template.json.id, variables: big } },
      }),
      /`template\.variables`/,
      MAX_TEMPLATE_VARIABLES_BYTES,
    );
    accepted(
      await call('POST', '/broadcasts', {
        key: t.secret,
        body: { segment_id: segmentId, template: { id: template.json.id, variables: { greeting: 'hello' } } },
      }),
      201,
    );
  });

  it('a broadcast with more reply_to addresses than the bound is 422', async () => {
    const t = await sendingTeam();
    const segmentId = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    const replyTo = Array.from({ length: MAX_REPLY_TO + 1 }, (_, i) => `r${i}@example.com`);
    refused(
      await call('POST', '/broadcasts', {
        key: t.secret,
        body: { segment_id: segmentId, from: t.from, subject: 'News', html: '<p>x</p>', reply_to: replyTo },
      }),
      /`reply_to`/,
      MAX_REPLY_TO,
    );
  });
});

describe('a broadcast whose rendering grows past the bound', () => {
  it('is delivered to each recipient whole, and GET /emails/{id} returns the rendered body (it is kept off the row)', async () => {
    // 600 placeholders of a 1,000-character property: 13 KB of HTML renders to 600 KB per recipient.
    const t = await sendingTeam();
    await t.resend.contactProperties.create({ key: 'bio', type: 'string' });
    const bio = 'b'.repeat(1000);
    const segmentId = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    const contact = await call('POST', '/contacts', {
      key: t.secret,
      body: { email: `reader-${t.team.id.slice(-8)}@example.com`, properties: { bio }, segments: [segmentId] },
    });
    accepted(contact, 201);
    // The subject grows too: 5 placeholders render to 5,000 characters, cut to the subject bound.
    const subject = `Grown ${t.team.id.slice(-8)} `;
    const made = await call('POST', '/broadcasts', {
      key: t.secret,
      body: {
        segment_id: segmentId,
        from: t.from,
        subject: `${subject}${'{{{bio}}}'.repeat(5)}`,
        html: `<p>${'{{{bio}}}'.repeat(600)}</p>`,
        send: true,
      },
    });
    accepted(made, 201);
    const rendered = `<p>${bio.repeat(600)}</p>`;
    const mail = await inboxEntry((e) => String(e.subject).startsWith(subject), `starting "${subject}"`, 60_000);
    // Compared by content, not printed: a failure here would otherwise print 600 KB.
    const inboxHtml: string = mail.body.html;
    expect(inboxHtml.includes(rendered), `the inbox holds the rendered body (${inboxHtml.length} characters)`).toBe(
      true,
    );
    const list = await call('GET', '/emails?limit=10', { key: t.secret });
    const email = list.json.data.find((e: any) => e.subject.startsWith(subject));
    expect(email.subject).toBe(`${subject}${bio.repeat(5)}`.slice(0, MAX_SUBJECT_LENGTH));
    expect(mail.subject).toBe(email.subject);
    const stored: string = (await call('GET', `/emails/${email.id}`, { key: t.secret })).json.html ?? '';
    expect(stored === rendered, `GET /emails/{id} returns the rendered body (${stored.length} characters)`).toBe(true);
  }, 90_000);
});

describe("an email's headers, tags, reply_to, attachments and display names", () => {
  const send = async (t: Awaited<ReturnType<typeof sendingTeam>>, extra: Record<string, unknown>) =>
    call('POST', '/emails', {
      key: t.secret,
      body: { from: t.from, to: 'someone@example.com', subject: 'Bounds', text: 'x', ...extra },
    });
  const headers = (n: number, value = 'v') =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-Custom-${i}`, value]));

  it('custom headers: more than the bound, or a value past 998 characters, is 422; at the bounds it is sent', async () => {
    const t = await sendingTeam();
    refused(await send(t, { headers: headers(MAX_CUSTOM_HEADERS + 1) }), /`headers`/, MAX_CUSTOM_HEADERS);
    refused(
      await send(t, { headers: { 'X-Long': 'v'.repeat(500_000) } }),
      /`headers\.X-Long`/,
      MAX_HEADER_VALUE_LENGTH,
    );
    refused(
      await send(t, { headers: { 'X-Long': 'v'.repeat(MAX_HEADER_VALUE_LENGTH + 1) } }),
      /`headers\.X-Long`/,
      MAX_HEADER_VALUE_LENGTH,
    );
    accepted(await send(t, { headers: headers(MAX_CUSTOM_HEADERS, 'v'.repeat(MAX_HEADER_VALUE_LENGTH)) }));
  });

  it('tags: more than the bound is 422; at the bound it is sent', async () => {
    const t = await sendingTeam();
    const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tag_${i}`, value: 'v'.repeat(256) }));
    refused(await send(t, { tags: tags(MAX_TAGS + 1) }), /`tags`/, MAX_TAGS);
    accepted(await send(t, { tags: tags(MAX_TAGS) }));
  });

  it('reply_to: more addresses than the bound is 422; at the bound it is sent', async () => {
    const t = await sendingTeam();
    const list = (n: number) => Array.from({ length: n }, (_, i) => `reply${i}@example.com`);
    refused(await send(t, { reply_to: list(MAX_REPLY_TO + 1) }), /`reply_to`/, MAX_REPLY_TO);
    accepted(await send(t, { reply_to: list(MAX_REPLY_TO) }));
  });

  it('attachments: more files than the bound, or a content_type past 255 characters, is 422', async () => {
    const t = await sendingTeam();
    const files = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ filename: `f${i}.txt`, content: Buffer.from('hi').toString('base64') }));
    refused(await send(t, { attachments: files(MAX_ATTACHMENTS + 1) }), /`attachments`/, MAX_ATTACHMENTS);
    refused(
      await send(t, {
        attachments: [{ filename: 'a.txt', content: 'aGk=', content_type: `text/plain; x=${'y'.repeat(300)}` }],
      }),
      /`attachments\[0\]\.content_type`/,
      255,
    );
    accepted(await send(t, { attachments: files(MAX_ATTACHMENTS) }));
  });

  it('display names: past the bound in from, to or reply_to is 422; at the bound it is sent', async () => {
    const t = await sendingTeam();
    const long = 'N'.repeat(MAX_DISPLAY_NAME_LENGTH + 1);
    refused(await send(t, { from: `${long} <hello@${t.domain}>` }), /`from`/, MAX_DISPLAY_NAME_LENGTH);
    refused(await send(t, { to: `${'M'.repeat(400_000)} <someone@example.com>` }), /`to`/, MAX_DISPLAY_NAME_LENGTH);
    refused(await send(t, { reply_to: [`${long} <r@example.com>`] }), /`reply_to\[0\]`/, MAX_DISPLAY_NAME_LENGTH);
    accepted(await send(t, { from: `${'N'.repeat(MAX_DISPLAY_NAME_LENGTH)} <hello@${t.domain}>` }));
  });
});

describe('contact properties a team may define', () => {
  it(`one past ${MAX_CONTACT_PROPERTIES} is 422 (also with 20 created at once); deleting one frees its slot`, async () => {
    const t = await newTeam();
    const create = (key: string) =>
      call('POST', '/contact-properties', { key: t.secret, body: { key, type: 'string' } });
    for (let i = 0; i < MAX_CONTACT_PROPERTIES - 5; i++) accepted(await create(`p${i}`), 201);
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`burst${i}`)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of burst.filter((x) => x.status !== 201)) refused(r, /contact properties/, MAX_CONTACT_PROPERTIES);
    refused(await create('one_more'), /contact properties/, MAX_CONTACT_PROPERTIES);
    const list = await call('GET', '/contact-properties?limit=100', { key: t.secret });
    expect(list.json.data).toHaveLength(MAX_CONTACT_PROPERTIES);
    expect((await call('DELETE', `/contact-properties/${list.json.data[0].id}`, { key: t.secret })).status).toBe(200);
    accepted(await create('one_more'), 201);
    refused(await create('two_more'), /contact properties/, MAX_CONTACT_PROPERTIES);
  });
});
