import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn, signInOverHttp } from '../support/dashboard.ts';
import { inboxMessageTo } from '../support/inbox.ts';
import { agent, agentMailbox, newDraft } from '../support/mailboxes.ts';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';
import type { User } from '@mailstack/core/domain/people/user';

/**
 * The approval flow end to end: an agent whose key may not send asks to send a draft; the owner
 * gets the notice in the local inbox, follows its link to the mailbox panel in headless Chromium,
 * approves, and the message is delivered from the mailbox's address. Rejection, the activity
 * table, and who may decide are checked too; each page with axe-core.
 */
describe('mailbox approvals in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let t: Awaited<ReturnType<typeof agentMailbox>>;
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  const signedInAs = async (user: User) => {
    const page = await openPage(browser);
    await page.goto(await signInLink(testDeps(), user));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForLoadState();
    return page;
  };

  beforeAll(async () => {
    t = await agentMailbox({ localPart: `desk-${randomUUID().slice(0, 6)}` });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('notifies the owner, who approves in the panel; the message then goes out from the mailbox', async () => {
    // Prepare
    const to = `client-${randomUUID().slice(0, 8)}@customer.example.org`;
    const draft = await agent(
      t.draftKey,
      'POST',
      '/drafts',
      newDraft({ to: [to], subject: 'Proposal for review', text: 'Dear client,\n<b>not bold</b>\nBest.' }),
    );
    const asked = await agent(t.draftKey, 'POST', '/send', { id: draft.body.id, expectedRevision: 0 });
    const notice = await inboxMessageTo(t.owner.email, `A draft in ${t.m.address} awaits your approval`);
    const link = /(http:\/\/\S+\/mailboxes\/[0-9a-f-]+)/.exec(notice.body.text)?.[1];
    const page = await signedInAs(t.owner);

    // Act
    await page.goto(link!);
    const card = page.getByRole('article', { name: 'Draft Proposal for review' });
    const shown = await card.textContent();
    await look(page, 'mailbox-approval');
    await card.getByRole('button', { name: 'Approve and send Proposal for review' }).click();
    await page.waitForURL(/notice=draft-approved$/);
    const delivered = await inboxMessageTo(to, 'Proposal for review');
    const after = await agent(t.sendKey, 'GET', `/items?id=${draft.body.id}`);
    const sent = await agent(t.sendKey, 'GET', '/items?folder=sent');
    const activity = await page.getByRole('table', { name: 'Mailbox activity' }).textContent();
    await look(page, 'mailbox-approved');

    // Assess
    expect(asked.body).toMatchObject({ status: 'awaiting_approval' });
    expect(link).toBe(`${dashboardUrl()}/t/${t.team.id}/mailboxes/${t.m.id}`);
    expect(shown).toContain(to);
    expect(shown).toContain('<b>not bold</b>'); // shown as text, not markup
    expect(shown).toContain('drafter');
    expect(JSON.stringify(delivered.headers)).toContain(t.m.address);
    expect(after.body).toMatchObject({ status: 'sent', emailId: expect.any(String) });
    expect(sent.body.items[0]).toMatchObject({ subject: 'Proposal for review' });
    expect(activity).toContain('approved');
    expect(activity).toContain('asked for approval');
    expect(await page.getByText('No draft is waiting.').count()).toBe(1);
    expect(violations).toEqual([]);
  });

  it('lets the owner reject; the agent sees the rejection and must edit before asking again', async () => {
    // Prepare
    const draft = await agent(t.draftKey, 'POST', '/drafts', newDraft({ subject: 'Too hasty' }));
    await agent(t.draftKey, 'POST', '/send', { id: draft.body.id, expectedRevision: 0 });
    const page = await signedInAs(t.owner);

    // Act
    await page.goto(`${dashboardUrl()}/t/${t.team.id}/mailboxes/${t.m.id}`);
    await page.getByRole('button', { name: 'Reject Too hasty' }).click();
    await page.waitForURL(/notice=draft-rejected$/);
    const read = await agent(t.draftKey, 'GET', `/items?id=${draft.body.id}`);
    const again = await agent(t.draftKey, 'POST', '/send', { id: draft.body.id, expectedRevision: 0 });
    const edited = await agent(
      t.draftKey,
      'POST',
      '/drafts',
      newDraft({ id: draft.body.id, expectedRevision: 0, subject: 'Less hasty' }),
    );
    const askedAgain = await agent(t.draftKey, 'POST', '/send', { id: draft.body.id, expectedRevision: 1 });

    // Assess
    expect(read.body.status).toBe('rejected');
    expect(again).toMatchObject({ status: 409, body: { name: 'conflict' } });
    expect(again.body.message).toContain('rejected');
    expect(askedAgain).toMatchObject({ status: 202, body: { status: 'awaiting_approval', revision: 1 } });
    expect(edited.body.revision).toBe(1);
  });

  it('shows waiting drafts to other people without the buttons, and refuses their forged decisions (403)', async () => {
    // Prepare
    const draft = await agent(t.draftKey, 'POST', '/drafts', newDraft({ subject: 'Owner decides' }));
    await agent(t.draftKey, 'POST', '/send', { id: draft.body.id, expectedRevision: 0 });
    const admin = await personIn(t.team.id, 'admin');
    const session = await signInOverHttp(admin.link);
    const path = `/t/${t.team.id}/mailboxes/${t.m.id}`;

    // Act
    const page = await (await session.get(path)).text();
    const forged = await session.post(`${path}/drafts/${draft.body.id}/approve?revision=0`, { _csrf: session.csrf });
    const still = await agent(t.draftKey, 'GET', `/items?id=${draft.body.id}`);

    // Assess
    expect(page).toContain('Owner decides');
    expect(page).not.toContain('Approve and send');
    expect(forged.status).toBe(403);
    expect(still.body.status).toBe('awaiting_approval');
  });
});
