import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sendingTeam } from '../support/sending.ts';
import { mx } from '../support/mailboxes.ts';

/** What the local MX answers for one recipient: the SMTP reply code of the whole hand-off. */
const mxAnswer = async (to: string): Promise<number> => {
  try {
    const info = await mx().sendMail({ from: 'ada@customer.example.org', to, subject: 'Hi', text: 'Words.' });
    return Number(info.response.slice(0, 3));
  } catch (error) {
    return Number((error as { responseCode?: number }).responseCode ?? 0);
  }
};

describe('the inbound receipt rule names the domains the teams hold', () => {
  it("takes mail for a team's domain, refuses a domain no team holds, and stops taking a domain once it is deleted", async () => {
    // Prepare: a team adds a domain through the API (the rule names it at once).
    const t = await sendingTeam();
    const unheld = `nobody-holds-${randomUUID().slice(0, 8)}.example.com`;

    // Act + Assess: held, taken (no mailbox has the address, so it is accepted and dropped with a record).
    expect(await mxAnswer(`someone@${t.domain}`)).toBe(250);
    // No team holds it: refused at RCPT TO, as SES refuses mail no receipt rule names.
    expect(await mxAnswer(`someone@${unheld}`)).toBe(550);
    // A subdomain of a held domain is not named either.
    expect(await mxAnswer(`someone@sub.${t.domain}`)).toBe(550);

    const { error } = await t.resend.domains.remove(t.domainId);
    expect(error).toBeNull();
    expect(await mxAnswer(`someone@${t.domain}`)).toBe(550);
  });
});
