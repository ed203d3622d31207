import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import { CreateTemplateRequest, UpdateTemplateRequest, VARIABLE_TYPES } from '@mailstack/core/schemas/templates';
import { createTemplate } from '@mailstack/core/domain/templates/create-template';
import { deleteTemplate } from '@mailstack/core/domain/templates/delete-template';
import { duplicateTemplate } from '@mailstack/core/domain/templates/duplicate-template';
import { getTemplate } from '@mailstack/core/domain/templates/get-template';
import { listTemplates } from '@mailstack/core/domain/templates/list-templates';
import { publishTemplate } from '@mailstack/core/domain/templates/publish-template';
import { templateRow } from '@mailstack/core/domain/templates/template-view';
import { updateTemplate } from '@mailstack/core/domain/templates/update-template';
import type { TemplateItem } from '@mailstack/core/table/templates';
import { previewTemplate, type PreviewSource } from '@mailstack/core/domain/templates/preview';
import { allows, authorize } from '@mailstack/core/domain/people/roles';
import type { DashboardEnv, Ctx } from '../app.ts';
import {
  badge,
  button,
  csrfField,
  field,
  fieldLimits,
  formError,
  limitAttrs,
  orFormAgain,
  sandboxedHtml,
  table,
  teamPage,
  when,
} from '../view.ts';

/** Empty rows the variables table offers past the declared ones. */
const BLANK_VARIABLE_ROWS = 2;
/** The most variables a template declares (the schema's limit). */
const MAX_VARIABLES = fieldLimits(CreateTemplateRequest, 'variables').maxlength ?? 50;

type Form = Record<string, string>;

const blank = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s.trim());

/** A fallback typed in a text field, read as its variable's type; what does not parse stays text, so the schema names the field. */
const fallbackOf = (type: string, raw: string): unknown => {
  const s = raw.trim();
  if (type === 'number') return s !== '' && Number.isFinite(Number(s)) ? Number(s) : raw;
  if (type === 'boolean') return s === 'true' ? true : s === 'false' ? false : raw;
  if (type === 'object' || type === 'list') {
    try {
      return JSON.parse(s);
    } catch {
      return raw;
    }
  }
  return raw;
};

/** The variables table's rows (var_key_N, var_type_N, var_fallback_N); a row without a key is left out. */
const variablesOf = (f: Form) => {
  const out: { key: string; type: string; fallback_value: unknown }[] = [];
  for (let i = 0; i < MAX_VARIABLES + BLANK_VARIABLE_ROWS; i++) {
    const key = (f[`var_key_${i}`] ?? '').trim();
    if (!key) continue;
    const type = f[`var_type_${i}`] ?? 'string';
    const raw = f[`var_fallback_${i}`] ?? '';
    out.push({ key, type, fallback_value: raw === '' ? null : fallbackOf(type, raw) });
  }
  return out;
};

/** The editor's fields as the API's create / update body (the form always carries every field). */
const bodyOf = (f: Form) => ({
  name: (f.name ?? '').trim(),
  html: f.html ?? '',
  alias: blank(f.alias),
  subject: blank(f.subject),
  text: (f.text ?? '').trim() === '' ? null : f.text!,
  from: blank(f.from),
  reply_to:
    blank(f.reply_to) === null
      ? null
      : f
          .reply_to!.split(',')
          .map((x) => x.trim())
          .filter(Boolean),
  variables: variablesOf(f),
});

/** A saved template as the editor's field values. */
const valuesOf = (t: TemplateItem): Form => ({
  name: t.name,
  alias: t.alias ?? '',
  from: t.from ?? '',
  reply_to: (t.reply_to ?? []).join(', '),
  subject: t.subject ?? '',
  html: t.html,
  text: t.text ?? '',
  ...Object.fromEntries(
    t.variables.flatMap((x, i) => [
      [`var_key_${i}`, x.key],
      [`var_type_${i}`, x.type],
      [
        `var_fallback_${i}`,
        x.fallback_value === null || x.fallback_value === undefined
          ? ''
          : typeof x.fallback_value === 'string'
            ? x.fallback_value
            : JSON.stringify(x.fallback_value),
      ],
    ]),
  ),
});

const previewSourceOf = (f: Form): PreviewSource => ({
  html: f.html ?? '',
  text: (f.text ?? '') === '' ? null : f.text!,
  subject: blank(f.subject),
  variables: variablesOf(f),
});

/** The variables table: declared rows, then blank ones to add more. */
const variableRows = (v: Form) => {
  const used = Object.keys(v)
    .filter((k) => /^var_key_\d+$/.test(k) && v[k]!.trim() !== '')
    .map((k) => Number(k.slice(8)));
  const rows = Math.min(
    MAX_VARIABLES + BLANK_VARIABLE_ROWS,
    (used.length ? Math.max(...used) + 1 : 0) + BLANK_VARIABLE_ROWS,
  );
  return html`<div class="table-wrap"><table class="variables"><caption class="skip">Variables</caption><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Fallback value</th></tr></thead><tbody>
${Array.from(
  { length: rows },
  (
    _,
    i,
  ) => html`<tr><td><input name="var_key_${i}" value="${v[`var_key_${i}`] ?? ''}" aria-label="Name of variable ${i + 1}"${i === 0 ? html` placeholder="PRODUCT"` : ''}${limitAttrs(fieldLimits(CreateTemplateRequest, 'variables', 'key'))}></td>
<td><select name="var_type_${i}" aria-label="Type of variable ${i + 1}">${VARIABLE_TYPES.map((t) => html`<option${t === (v[`var_type_${i}`] ?? 'string') ? html` selected` : ''}>${t}</option>`)}</select></td>
<td><input name="var_fallback_${i}" value="${v[`var_fallback_${i}`] ?? ''}" aria-label="Fallback value of variable ${i + 1}"></td></tr>`,
)}</tbody></table></div>`;
};

/**
 * The editor: the fields on the left, the preview on the right. "Preview" posts the fields (not
 * saved) to the preview endpoint into the sandboxed frame; the script does so as one types.
 */
const editor = (c: Ctx, v: Form, action: string, saveLabel: string, previewSrc: string | null, error?: string) => {
  const t = `/t/${c.get('actor').team.id}/templates`;
  return html`${formError(error)}
<form method="post" action="${action}" class="editor" data-live-preview>${csrfField(c.get('ctx').csrf)}
<div class="fields">
${field('f-name', 'Name', html`<input id="f-name" name="name" required${limitAttrs(fieldLimits(CreateTemplateRequest, 'name'))} value="${v.name ?? ''}">`)}
${field('f-alias', 'Alias (optional; send with it instead of the id)', html`<input id="f-alias" name="alias"${limitAttrs(fieldLimits(CreateTemplateRequest, 'alias'))} value="${v.alias ?? ''}" placeholder="order-shipped">`)}
${field('f-from', 'From (optional)', html`<input id="f-from" name="from" value="${v.from ?? ''}" placeholder="Acme &lt;hello@acme.com&gt;">`)}
${field('f-reply_to', 'Reply-to (optional; addresses separated by commas)', html`<input id="f-reply_to" name="reply_to" value="${v.reply_to ?? ''}">`)}
${field('f-subject', 'Subject (optional)', html`<input id="f-subject" name="subject"${limitAttrs(fieldLimits(CreateTemplateRequest, 'subject'))} value="${v.subject ?? ''}" placeholder="Your order {{{ORDER_ID}}} has shipped">`)}
${field('f-html', 'HTML', html`<textarea id="f-html" name="html" rows="14" class="code" required spellcheck="false">${v.html ?? ''}</textarea>`)}
${field('f-text', 'Text version (optional)', html`<textarea id="f-text" name="text" rows="5" class="code" spellcheck="false">${v.text ?? ''}</textarea>`)}
<fieldset><legend>Variables</legend><p class="muted">Use them as <code>{{{NAME}}}</code> (or <code>{{{NAME|inline fallback}}}</code>). A send must give a value for each variable without a fallback. Save to get more empty rows.</p>${variableRows(v)}</fieldset>
<div class="actions"><button>${saveLabel}</button><button class="secondary" formaction="${t}/preview" formtarget="template-preview" formnovalidate data-preview>Preview</button></div>
</div>
<div class="preview-pane"><h2>Preview</h2>
<p class="muted">Rendered as a send with no variables would be: each variable's fallback, and <code>[NAME]</code> where there is none. Scripts do not run and remote images do not load here.</p>
<iframe name="template-preview" class="preview" sandbox=""${previewSrc ? html` src="${previewSrc}"` : ''} title="Preview of the template's HTML, rendered without scripts"></iframe></div>
</form>`;
};

const listPage = async (c: Ctx) => {
  const actor = c.get('actor');
  const t = `/t/${actor.team.id}/templates`;
  const after = c.req.query('after');
  const { items, hasMore } = await listTemplates(c.get('deps'), actor.team.id, {
    limit: 50,
    after: after && /^[0-9a-f-]{36}$/.test(after) ? after : undefined,
  });
  const last = items.at(-1)?.id;
  return teamPage(
    c.get('ctx'),
    'Templates',
    html`
${allows(actor.role, 'templates:write') ? html`<p><a class="button" href="${t}/new">New template</a></p>` : html`<p class="muted">Your role (${actor.role}) may see and preview templates but not change them.</p>`}
${table(
  'Templates',
  ['Name', 'Alias', 'Status', 'Published', 'Updated'],
  items
    .map(templateRow)
    .map(
      (x) =>
        html`<tr><td><a href="${t}/${x.id}">${x.name}</a></td><td>${x.alias ? html`<code>${x.alias}</code>` : html`<span class="muted">none</span>`}</td><td>${badge(x.status)}</td><td>${when(x.published_at)}</td><td>${when(x.updated_at)}</td></tr>`,
    ),
  'No templates yet: create one, then send with it by id or alias.',
)}
${hasMore && last ? html`<p class="pager"><a href="${t}?after=${last}">More templates</a></p>` : ''}`,
    c.req.query('notice'),
  );
};

const newPage = (c: Ctx, v: Form = {}, error?: string) =>
  teamPage(
    c.get('ctx'),
    'New template',
    html`<p><a href="/t/${c.get('actor').team.id}/templates">All templates</a></p>
${editor(c, v, `/t/${c.get('actor').team.id}/templates`, 'Create template', null, error)}`,
  );

const templatePage = async (c: Ctx, edited?: Form, error?: string) => {
  const actor = c.get('actor');
  const { csrf } = c.get('ctx');
  const tpl = await getTemplate(c.get('deps'), actor.team.id, c.req.param('id')!);
  const base = `/t/${actor.team.id}/templates/${tpl.id}`;
  const row = templateRow(tpl);
  const saved = previewTemplate(tpl);
  const summary = html`<div class="card"><p>Status ${badge(row.status)} · Published ${when(row.published_at)} · Updated ${when(row.updated_at)}</p>
<dl><dt>Id</dt><dd><code>${tpl.id}</code></dd>${tpl.alias ? html`<dt>Alias</dt><dd><code>${tpl.alias}</code></dd>` : ''}
<dt>Subject</dt><dd>${saved.subject ?? html`<span class="muted">none: each send gives one</span>`}</dd><dt>From</dt><dd>${tpl.from ?? html`<span class="muted">none: each send gives one</span>`}</dd></dl>
${saved.samples.length ? html`<p class="muted">No fallback, shown as samples: ${saved.samples.join(', ')}. A send without them is refused.</p>` : ''}
<p class="muted">Every save is live at once for sends that name this template (as the API's update is); Publish records the publish time.</p></div>`;
  if (!allows(actor.role, 'templates:write')) {
    return teamPage(
      c.get('ctx'),
      tpl.name,
      html`<p><a href="/t/${actor.team.id}/templates">All templates</a></p>${summary}
<p class="muted">Your role (${actor.role}) may see and preview templates but not change them.</p>
<h2>Preview</h2><iframe class="preview" sandbox="" src="${base}/preview" title="Preview of the template's HTML, rendered without scripts"></iframe>
${saved.text !== null ? html`<h2>Text version</h2><pre>${saved.text}</pre>` : ''}
<h2>HTML source</h2><pre><code>${tpl.html}</code></pre>`,
      c.req.query('notice'),
    );
  }
  return teamPage(
    c.get('ctx'),
    tpl.name,
    html`<p><a href="/t/${actor.team.id}/templates">All templates</a></p>${summary}
<div class="actions">${button(csrf, `${base}/publish`, 'Publish', '')}${button(csrf, `${base}/duplicate`, 'Duplicate')}${button(csrf, `${base}/delete`, 'Delete template', 'danger')}</div>
<h2>Edit</h2>
${editor(c, edited ?? valuesOf(tpl), `${base}/edit`, 'Save template', `${base}/preview`, error)}`,
    c.req.query('notice'),
  );
};

export const registerTemplates = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/templates', async (c) => c.html(await listPage(c)));
  app.get('/t/:team/templates/new', (c) => {
    authorize(c.get('actor').role, 'templates:write');
    return c.html(newPage(c));
  });
  app.post('/t/:team/templates', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'templates:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const tpl = await createTemplate(c.get('deps'), actor.team.id, validate(CreateTemplateRequest, bodyOf(f)));
        return c.redirect(`/t/${actor.team.id}/templates/${tpl.id}?notice=created`, 303);
      },
      (error) => newPage(c, f, error),
    );
  });
  // The editor's fields rendered without saving, into the sandboxed preview frame (any role may preview).
  app.post('/t/:team/templates/preview', (c) => sandboxedHtml(c, previewTemplate(previewSourceOf(c.get('form'))).html));
  app.get('/t/:team/templates/:id', async (c) => c.html(await templatePage(c)));
  app.get('/t/:team/templates/:id/preview', async (c) =>
    sandboxedHtml(c, previewTemplate(await getTemplate(c.get('deps'), c.get('actor').team.id, c.req.param('id'))).html),
  );
  app.post('/t/:team/templates/:id/edit', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'templates:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const tpl = await updateTemplate(
          c.get('deps'),
          actor.team.id,
          c.req.param('id'),
          validate(UpdateTemplateRequest, bodyOf(f)),
        );
        return c.redirect(`/t/${actor.team.id}/templates/${tpl.id}?notice=saved`, 303);
      },
      (error) => templatePage(c, f, error),
    );
  });
  app.post('/t/:team/templates/:id/publish', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'templates:write');
    const tpl = await publishTemplate(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/templates/${tpl.id}?notice=published`, 303);
  });
  app.post('/t/:team/templates/:id/duplicate', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'templates:write');
    const copy = await duplicateTemplate(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/templates/${copy.id}?notice=duplicated`, 303);
  });
  app.post('/t/:team/templates/:id/delete', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'templates:write');
    await deleteTemplate(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/templates?notice=deleted`, 303);
  });
};
