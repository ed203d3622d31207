import { describe, expect, it } from 'vitest';
import { call, local, newTeam } from '../support/local.ts';
import { eventsOf } from '../support/events.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail } from '../support/inbox.ts';
import { launchBrowser, openPage } from '../support/browser.ts';

describe('preferences and unsubscribe', () => {
  it('serves a preference page that a person uses in a browser to change a topic, recorded with source hosted_page', async () => {
    // Prepare
    const { resend, secret, team } = await newTeam();
    const news = (
      await resend.topics.create({ name: 'Weekly news', defaultSubscription: 'opt_in', visibility: 'public' } as any)
    ).data!.id;
    await resend.topics.create({ name: 'Internal only', defaultSubscription: 'opt_in', visibility: 'private' } as any);
    const { data: c } = await resend.contacts.create({ email: 'reader@example.com' });
    const link = await call('POST', `/contacts/${c!.id}/preferences-link`, { key: secret });
    expect(link.json).toMatchObject({
      object: 'preferences_link',
      contact: c!.id,
      url: expect.stringContaining('/preferences/'),
    });

    // Act
    const browser = await launchBrowser();
    try {
      const page = await openPage(browser);
      await page.goto(link.json.url, { timeout: 20_000 });
      expect(await page.textContent('body')).toContain('Weekly news');
      expect(await page.textContent('body')).not.toContain('Internal only');
      const box = page.getByLabel('Weekly news');
      expect(await box.isChecked()).toBe(true);
      await box.uncheck();
      await page.getByRole('button', { name: 'Save preferences' }).click();
      await page.getByRole('status').waitFor({ timeout: 10_000 });
      expect(await page.getByLabel('Weekly news').isChecked()).toBe(false);
    } finally {
      await browser.close();
    }

    // Assess
    const topics = await resend.contacts.topics.list({ id: c!.id });
    expect(topics.data!.data.find((t: any) => t.id === news)).toMatchObject({
      subscription: 'opt_out',
      explicit: true,
    });
    const event = (await eventsOf(team.id)).find((e) => e.type === 'contact.topic_opt_out');
    expect(event?.data).toMatchObject({ topic_id: news, source: 'hosted_page', email: 'reader@example.com' });
  }, 60_000);

  it("escapes what the team and the contact named: a topic's name and description, and an address with an apostrophe, show as text", async () => {
    // Prepare
    const { resend, secret } = await newTeam();
    await resend.topics.create({
      name: '<b>Deals & "offers"</b>',
      description: "<img src=x onerror=alert('x')>",
      defaultSubscription: 'opt_in',
      visibility: 'public',
    } as any);
    const { data: c, error } = await resend.contacts.create({ email: "o'brien+news@example.com" });
    expect(error).toBeNull();
    const link = await call('POST', `/contacts/${c!.id}/preferences-link`, { key: secret });

    // Act
    const page = await (await fetch(link.json.url)).text();

    // Assess
    expect(page).toContain('&lt;b&gt;Deals &amp; &quot;offers&quot;&lt;/b&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(&#39;x&#39;)&gt;');
    expect(page).toContain('For o&#39;brien+news@example.com');
    expect(page).not.toContain('<b>Deals');
    expect(page).not.toContain('<img');
  });

  it('answers a tampered or foreign token with a 404 page, never another contact', async () => {
    const { resend, secret } = await newTeam();
    const { data: c } = await resend.contacts.create({ email: 'private@example.com' });
    const { url } = (await call('POST', `/contacts/${c!.id}/preferences-link`, { key: secret })).json;
    const token: string = url.split('/preferences/')[1];
    // <key id>.<claims>.<mac>
    const [keyId, payload, mac] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), c: crypto.randomUUID() }),
    ).toString('base64url');
    for (const bad of [
      `${keyId}.${forged}.${mac}`,
      `${keyId}.${payload}.${mac!.slice(0, -2)}xx`,
      `other.${payload}.${mac}`,
      `${forged}.${mac}`,
      'garbage',
    ]) {
      const page = await fetch(`${local().baseUrl}/preferences/${bad}`);
      expect(page.status).toBe(404);
      const body = await page.text();
      expect(body).toContain('not valid');
      expect(body).not.toContain('private@example.com');
    }
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('private@example.com');
  });

  it('unsubscribes with one click (RFC 8058) from the List-Unsubscribe link of a topic send', async () => {
    const t = await sendingTeam();
    const topic = (await t.resend.topics.create({ name: 'Deals', defaultSubscription: 'opt_in' } as any)).data!.id;
    await t.resend.contacts.create({ email: 'fan@example.com' });
    const subject = `Topic send ${crypto.randomUUID()}`;
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'fan@example.com',
      subject,
      html: '<a href="{{{RESEND_UNSUBSCRIBE_URL}}}">unsubscribe</a>',
      topicId: topic,
    } as any);
    expect(sent.error).toBeNull();
    const mail = await inboxMail(subject);
    const header = mail.headers?.find((h: any) => h.name.toLowerCase() === 'list-unsubscribe')?.value ?? '';
    const url = /<(https?:[^>]+)>/.exec(header)?.[1] ?? /href="([^"]+)"/.exec(mail.body.html)?.[1];
    expect(url).toContain('/unsubscribe/');
    expect(mail.body.html).toContain(url);
    expect((await fetch(url!)).status).toBe(200); // a GET (a scanner's prefetch) changes nothing
    expect((await t.resend.contacts.topics.list({ email: 'fan@example.com' })).data!.data[0]).toMatchObject({
      subscription: 'opt_in',
    });
    const click = await fetch(url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(click.status).toBe(200);
    expect((await t.resend.contacts.topics.list({ email: 'fan@example.com' })).data!.data[0]).toMatchObject({
      subscription: 'opt_out',
      explicit: true,
    });
    expect((await eventsOf(t.team.id)).find((e) => e.type === 'contact.topic_opt_out')?.data).toMatchObject({
      source: 'one_click',
    });
    const next = await t.resend.emails.send({
      from: t.from,
      to: 'fan@example.com',
      subject: 'again',
      text: 'x',
      topicId: topic,
    } as any);
    expect(next.error).toMatchObject({ statusCode: 422, name: 'all_recipients_suppressed' });
  }, 40_000);
});
