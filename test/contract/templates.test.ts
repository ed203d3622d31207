import { describe, expect, it } from 'vitest';
import { call, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail } from '../support/inbox.ts';

describe('templates through the official SDK', () => {
  it('creates, reads by id and by alias, lists, updates, publishes, duplicates and deletes', async () => {
    // Prepare
    const { resend } = await newTeam();

    // Act
    const created = await resend.templates.create({
      name: 'Welcome',
      alias: 'welcome',
      html: '<p>Hi {{{NAME}}}</p>',
      subject: 'Hello {{{NAME}}}',
      text: 'Hi {{{NAME}}}',
      from: 'Acme <hello@acme.example>',
      replyTo: 'help@acme.example',
      variables: [
        { key: 'NAME', type: 'string', fallbackValue: 'there' },
        { key: 'COUNT', type: 'number', fallbackValue: 2 },
      ],
    });

    // Assess
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'template', id: expect.any(String) });
    const id = created.data!.id;
    const byId = await resend.templates.get(id);
    expect(byId.data).toMatchObject({
      object: 'template',
      id,
      name: 'Welcome',
      alias: 'welcome',
      status: 'published',
      html: '<p>Hi {{{NAME}}}</p>',
      text: 'Hi {{{NAME}}}',
      subject: 'Hello {{{NAME}}}',
      from: 'Acme <hello@acme.example>',
      reply_to: ['help@acme.example'],
      has_unpublished_versions: false,
      current_version_id: expect.any(String),
      published_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(byId.data!.variables).toEqual([
      {
        id: expect.any(String),
        key: 'NAME',
        type: 'string',
        fallback_value: 'there',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      {
        id: expect.any(String),
        key: 'COUNT',
        type: 'number',
        fallback_value: 2,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect((await resend.templates.get('welcome')).data!.id).toBe(id);

    const updated = await resend.templates.update('welcome', { html: '<p>Hey {{{NAME}}}</p>', alias: 'welcome-2' });
    expect(updated.data).toEqual({ object: 'template', id });
    const after = (await resend.templates.get('welcome-2')).data!;
    expect(after.html).toBe('<p>Hey {{{NAME}}}</p>');
    expect(after.current_version_id).not.toBe(byId.data!.current_version_id);
    // A variable keeps its id while the template changes; a copy's variables have their own.
    const variableIds = byId.data!.variables!.map((x: any) => x.id);
    expect(new Set(variableIds).size).toBe(2);
    expect(after.variables!.map((x: any) => x.id)).toEqual(variableIds);
    expect((await resend.templates.get('welcome')).error).toMatchObject({ statusCode: 404, name: 'not_found' });

    expect((await resend.templates.publish(id)).data).toEqual({ object: 'template', id });
    const copy = await resend.templates.duplicate(id);
    expect(copy.data).toEqual({ object: 'template', id: expect.any(String) });
    expect(copy.data!.id).not.toBe(id);
    const copied = (await resend.templates.get(copy.data!.id)).data!;
    expect(copied).toMatchObject({ name: 'Welcome (copy)', alias: null, html: '<p>Hey {{{NAME}}}</p>' });
    expect(copied.variables!.map((x: any) => x.key)).toEqual(['NAME', 'COUNT']);
    expect(copied.variables!.map((x: any) => x.id).filter((x: string) => variableIds.includes(x))).toEqual([]);
    const chained = await resend.templates.create({ name: 'Chained', html: '<p>x</p>' }).publish();
    expect(chained.data).toEqual({ object: 'template', id: expect.any(String) });

    const list = await resend.templates.list({ limit: 2 });
    expect(list.data).toMatchObject({ object: 'list', has_more: true });
    expect(Object.keys(list.data!.data[0]!).sort()).toEqual([
      'alias',
      'created_at',
      'id',
      'name',
      'published_at',
      'status',
      'updated_at',
    ]);
    const next = await resend.templates.list({ limit: 2, after: list.data!.data[1]!.id });
    expect(next.data!.data.map((t) => t.id)).toEqual([id]);

    expect((await resend.templates.remove(id)).data).toEqual({ object: 'template', id, deleted: true });
    expect((await resend.templates.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it.each([
    ['a reserved variable name', { key: 'FIRST_NAME', type: 'string' }, 'reserved'],
    ['an unknown type', { key: 'X', type: 'date' }, 'type'],
    ['a fallback of the wrong type', { key: 'X', type: 'number', fallback_value: 'ten' }, 'fallback_value'],
    ['a name with spaces', { key: 'my var', type: 'string' }, 'key'],
  ])('refuses %s with 422', async (_case, variable, says) => {
    const { secret } = await newTeam();
    const out = await call('POST', '/templates', {
      key: secret,
      body: { name: 'n', html: '<p>x</p>', variables: [variable] },
    });
    expect(out.status).toBe(422);
    expect(out.json).toMatchObject({ name: 'validation_error' });
    expect(out.json.message).toContain(says);
  });

  it("keeps aliases unique per team and another team's template answers 404", async () => {
    const a = await newTeam();
    const b = await newTeam();
    const made = await a.resend.templates.create({ name: 'One', alias: 'shared', html: '<p>1</p>' });
    expect((await a.resend.templates.create({ name: 'Two', alias: 'shared', html: '<p>2</p>' })).error).toMatchObject({
      statusCode: 409,
      name: 'conflict',
    });
    expect((await b.resend.templates.create({ name: 'Theirs', alias: 'shared', html: '<p>3</p>' })).error).toBeNull();
    expect((await b.resend.templates.get(made.data!.id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await b.resend.templates.remove(made.data!.id)).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
  });
});

describe('sending with a template', () => {
  it("applies the template's sender and subject, escapes values in html and leaves them raw in text", async () => {
    // Prepare
    const t = await sendingTeam();
    const subject = `Order for ${t.team.id}`;
    await t.resend.templates.create({
      name: 'Order',
      alias: 'order',
      from: t.from,
      subject: 'Order for {{{TEAM}}}',
      replyTo: ['help@example.com'],
      html: '<p>Item: {{{ITEM}}}, {{{COUNT}}} pcs, {{{NOTE|none}}}</p>',
      text: 'Item: {{{ITEM}}} x{{{COUNT}}}',
      variables: [
        { key: 'ITEM', type: 'string' },
        { key: 'COUNT', type: 'number', fallbackValue: 1 },
        { key: 'TEAM', type: 'string' },
      ],
    });

    // Act
    const sent = await t.resend.emails.send({
      to: 'delivered@resend.dev',
      template: { id: 'order', variables: { ITEM: 'Fish & <Chips>', TEAM: t.team.id } },
    } as any);

    // Assess
    expect(sent.error).toBeNull();
    const email = (await t.resend.emails.get(sent.data!.id)).data!;
    expect(email).toMatchObject({ from: t.from, subject, reply_to: ['help@example.com'] });
    expect(email.html).toBe('<p>Item: Fish &amp; &lt;Chips&gt;, 1 pcs, none</p>');
    expect(email.text).toBe('Item: Fish & <Chips> x1');
    const delivered = await inboxMail(subject);
    expect(delivered.body.text.trim()).toBe('Item: Fish & <Chips> x1');
  });

  it("lets the request set from and subject over the template's", async () => {
    const t = await sendingTeam();
    const tpl = await t.resend.templates.create({
      name: 'Plain',
      from: 'Other <x@elsewhere.example>',
      subject: 'Template subject',
      html: '<p>Hi</p>',
    });
    const sent = await t.resend.emails.send({
      from: t.from,
      subject: 'Mine',
      to: 'delivered@resend.dev',
      template: { id: tpl.data!.id },
    });
    expect(sent.error).toBeNull();
    expect((await t.resend.emails.get(sent.data!.id)).data).toMatchObject({ from: t.from, subject: 'Mine' });
  });

  it('refuses a variable with no value and no fallback with 422 naming it, in single sends and batches', async () => {
    const t = await sendingTeam();
    await t.resend.templates.create({
      name: 'Needs',
      alias: 'needs',
      from: t.from,
      subject: 'S',
      html: '<p>{{{CODE}}}</p>',
      variables: [{ key: 'CODE', type: 'string' }],
    });
    const single = await t.resend.emails.send({ to: 'a@example.com', template: { id: 'needs' } } as any);
    expect(single.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(single.error!.message).toContain('`CODE`');
    const batch = await t.resend.batch.send(
      [
        { to: 'a@example.com', template: { id: 'needs', variables: { CODE: '1' } } },
        { to: 'b@example.com', template: { id: 'needs' } },
      ] as any,
      { batchValidation: 'permissive' },
    );
    expect(batch.data!.data).toHaveLength(1);
    expect((batch.data as any).errors).toEqual([{ index: 1, message: expect.stringContaining('`CODE`') }]);
    const wrongType = await call('POST', '/emails', {
      key: t.secret,
      body: { to: 'a@example.com', template: { id: 'needs', variables: { CODE: 5 } } },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json.message).toContain('CODE');
    // An array is not an object of variables: refused, not read as the keys "0", "1"…
    const array = await call('POST', '/emails', {
      key: t.secret,
      body: { to: 'a@example.com', template: { id: 'needs', variables: ['1'] } },
    });
    expect(array.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(array.json.message).toContain('must be an object of variable names');
  });

  it('refuses an unknown template and a template without a sender when none is given', async () => {
    const t = await sendingTeam();
    const unknown = await call('POST', '/emails', {
      key: t.secret,
      body: { to: 'a@example.com', template: { id: 'nope' } },
    });
    expect(unknown).toMatchObject({ status: 422, json: { name: 'validation_error' } });
    expect(unknown.json.message).toContain('nope');
    const bare = await t.resend.templates.create({ name: 'No sender', html: '<p>x</p>', subject: 's' });
    const noFrom = await call('POST', '/emails', {
      key: t.secret,
      body: { to: 'a@example.com', template: { id: bare.data!.id } },
    });
    expect(noFrom).toMatchObject({ status: 422, json: { name: 'validation_error' } });
    expect(noFrom.json.message).toContain('from');
  });
});
