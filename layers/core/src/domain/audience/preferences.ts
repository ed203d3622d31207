import type { Deps } from '../../runtime/deps.ts';
import { findContact, type Contact } from '../contacts/contact.ts';
import { updateContact } from '../contacts/write-contact.ts';
import { allTopics, contactTopics, setTopicChoices } from '../topics/topics.ts';
import { addSuppression } from '../suppressions/suppression-store.ts';
import { verifyLink } from './tokens.ts';
import { escapeHtml } from '../escape-html.ts';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
fieldset{border:1px solid #ddd;border-radius:8px;padding:1rem}label{display:block;margin:.5rem 0}
.muted{color:#666;font-size:.9rem}button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:0;background:#111;color:#fff;cursor:pointer}
.saved{background:#e8f6ec;padding:.5rem 1rem;border-radius:6px}</style></head>
<body>${body}</body></html>`;

/** The page for a link that does not verify: never another contact's page. */
const notFoundPage = () =>
  page(
    'Link not found',
    '<h1>This link is not valid</h1><p>The preference link is unknown, was changed, or the contact no longer exists. Use the link from your most recent email.</p>',
  );

const contactOf = async (deps: Deps, token: string): Promise<Contact | undefined> => {
  const claims = await verifyLink(deps, token, 'p');
  if (!claims?.contactId) return undefined;
  return findContact(deps, claims.teamId, claims.contactId);
};

/** The hosted preference page: public topics with the contact's choices, and global unsubscribe. */
export const renderPreferences = async (
  deps: Deps,
  token: string,
  saved = false,
): Promise<{ status: number; html: string }> => {
  const contact = await contactOf(deps, token);
  if (!contact) return { status: 404, html: notFoundPage() };
  const topics = (await contactTopics(deps, contact.teamId, contact.id)).filter((t) => t.visibility === 'public');
  const rows = topics
    .map(
      (t) =>
        `<label><input type="checkbox" name="topic" value="${t.id}" ${t.subscription === 'opt_in' ? 'checked' : ''}> ${escapeHtml(t.name)}${t.description ? ` <span class="muted">— ${escapeHtml(t.description)}</span>` : ''}</label>`,
    )
    .join('\n');
  return {
    status: 200,
    html: page(
      'Email preferences',
      `<h1>Email preferences</h1>
<p class="muted">For ${escapeHtml(contact.email)}</p>
${saved ? '<p class="saved" role="status">Your preferences were saved.</p>' : ''}
<form method="post">
<fieldset><legend>Topics</legend>${rows || '<p class="muted">There are no topics to choose from.</p>'}</fieldset>
<label><input type="checkbox" name="unsubscribe_all" value="yes" ${contact.unsubscribed ? 'checked' : ''}> Unsubscribe from all marketing email</label>
<button type="submit">Save preferences</button>
</form>`,
    ),
  };
};

/** Records the choices submitted on the hosted page (source hosted_page). */
export const savePreferences = async (
  deps: Deps,
  token: string,
  form: URLSearchParams,
): Promise<{ status: number; html: string }> => {
  const contact = await contactOf(deps, token);
  if (!contact) return { status: 404, html: notFoundPage() };
  const chosen = new Set(form.getAll('topic'));
  const publicTopics = (await allTopics(deps, contact.teamId)).filter((t) => t.visibility === 'public');
  await setTopicChoices(
    deps,
    contact.teamId,
    contact,
    publicTopics.map((t) => ({ id: t.id, subscription: chosen.has(t.id) ? 'opt_in' : 'opt_out' })),
    'hosted_page',
  );
  await updateContact(
    deps,
    contact.teamId,
    contact.id,
    { unsubscribed: form.get('unsubscribe_all') === 'yes' },
    'hosted_page',
  );
  return renderPreferences(deps, token, true);
};

/** The confirmation page of an unsubscribe link (a GET never unsubscribes: mail scanners prefetch). */
export const renderUnsubscribe = async (deps: Deps, token: string): Promise<{ status: number; html: string }> => {
  if (!(await verifyLink(deps, token, 'u'))) return { status: 404, html: notFoundPage() };
  return {
    status: 200,
    html: page(
      'Unsubscribe',
      '<h1>Unsubscribe</h1><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>',
    ),
  };
};

/**
 * RFC 8058 one-click unsubscribe (source one_click): a contact opts out of the link's topic (or
 * of all marketing mail without one); an address with no contact is suppressed with origin
 * unsubscribe, which counts against topic sends only.
 */
export const oneClickUnsubscribe = async (deps: Deps, token: string): Promise<{ status: number; html: string }> => {
  const claims = await verifyLink(deps, token, 'u');
  if (!claims?.email) return { status: 404, html: notFoundPage() };
  const contact = await findContact(deps, claims.teamId, claims.email);
  if (contact && claims.topicId)
    await setTopicChoices(
      deps,
      claims.teamId,
      contact,
      [{ id: claims.topicId, subscription: 'opt_out' }],
      'one_click',
    ).catch(() => undefined);
  else if (contact) await updateContact(deps, claims.teamId, contact.id, { unsubscribed: true }, 'one_click');
  else
    await addSuppression(deps, {
      teamId: claims.teamId,
      email: claims.email,
      origin: 'unsubscribe',
      source: 'one_click',
    });
  return {
    status: 200,
    html: page('Unsubscribed', '<h1>You are unsubscribed</h1><p>You will not receive these emails any more.</p>'),
  };
};
