import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendingTeam } from '../support/sending.ts';
import { personIn, signInOverHttp, type HttpSession } from '../support/dashboard.ts';

/**
 * The emails page's recipient and date filters, and an email's raw MIME message, over HTTP as a
 * signed-in member of the team.
 */
describe('dashboard emails page', () => {
  let t: Awaited<ReturnType<typeof sendingTeam>>;
  let session: HttpSession;
  const run = randomUUID().slice(0, 8);
  const subjects = {
    ann: `For Ann ${run}`,
    bob: `For Bob, Ann in copy ${run}`,
    carl: `For Carl ${run}`,
    dan: `For Dan, Ann in blind copy ${run}`,
  };
  const ids: Record<keyof typeof subjects, string> = { ann: '', bob: '', carl: '', dan: '' };
  let day = '';

  /** The subjects listed on the emails page with these filters. */
  const listed = async (filters: Record<string, string>): Promise<string[]> => {
    const res = await session.get(`/t/${t.team.id}/emails?${new URLSearchParams(filters).toString()}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    return [...page.matchAll(new RegExp(`<a href="/t/${t.team.id}/emails/[0-9a-f-]{36}">([^<]*)</a>`, 'g'))]
      .map((m) => m[1]!)
      .sort();
  };
  const shift = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await sendingTeam();
    for (const [who, to, cc, bcc] of [
      ['ann', 'ann@example.com', undefined, undefined],
      ['bob', 'bob@example.com', 'Ann.Copy@Example.com', undefined],
      ['carl', 'carl@example.com', undefined, undefined],
      ['dan', 'dan@example.com', undefined, 'ann-hidden@example.com'],
    ] as const) {
      const sent = await t.resend.emails.send({
        from: t.from,
        to,
        ...(cc ? { cc } : {}),
        ...(bcc ? { bcc } : {}),
        subject: subjects[who],
        html: `<p>Hello ${who}</p>`,
      });
      expect(sent.error).toBeNull();
      ids[who] = sent.data!.id;
    }
    day = (await t.resend.emails.get(ids.ann)).data!.created_at.slice(0, 10);
    session = await signInOverHttp((await personIn(t.team.id, 'member')).link);
  }, 60_000);

  it('filters by recipient: part of an address, in any case, matched against To, Cc and Bcc', async () => {
    expect(await listed({})).toEqual(Object.values(subjects).sort());
    expect(await listed({ to: 'ann' })).toEqual([subjects.ann, subjects.bob, subjects.dan].sort());
    expect(await listed({ to: 'ann-hidden' })).toEqual([subjects.dan]);
    expect(await listed({ to: 'BOB@example.COM' })).toEqual([subjects.bob]);
    expect(await listed({ to: 'ann.copy@' })).toEqual([subjects.bob]);
    expect(await listed({ to: 'nobody@example.com' })).toEqual([]);
    expect(await (await session.get(`/t/${t.team.id}/emails?to=nobody%40example.com`)).text()).toContain(
      'No emails match.',
    );
  });

  it('filters by date: from and to days (UTC) both included, alone or with the recipient', async () => {
    expect(await listed({ from: day, until: day })).toEqual(Object.values(subjects).sort());
    expect(await listed({ from: shift(day, -1) })).toEqual(Object.values(subjects).sort());
    expect(await listed({ from: shift(day, 1) })).toEqual([]);
    expect(await listed({ until: shift(day, -1) })).toEqual([]);
    expect(await listed({ until: day, to: 'carl' })).toEqual([subjects.carl]);
    expect(await listed({ from: shift(day, 1), to: 'carl' })).toEqual([]);
    // The form keeps the filters it shows.
    const page = await (await session.get(`/t/${t.team.id}/emails?to=carl&from=${day}`)).text();
    expect(page).toContain('name="to" value="carl"');
    expect(page).toContain(`name="from" value="${day}"`);
  });

  it("shows a sent email's attachments and serves each as it was sent; another team's email is not found", async () => {
    // Prepare
    const pdf = Buffer.from('%PDF-1.4 \u0000\u00fe', 'latin1');
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'ann@example.com',
      subject: `With a file ${run}`,
      text: 'Attached.',
      attachments: [{ filename: 'invoice 42.pdf', content: pdf, contentType: 'application/pdf' }],
    });
    const other = await sendingTeam();
    const foreign = await other.resend.emails.send({
      from: other.from,
      to: 'ann@example.com',
      subject: 'Theirs',
      text: 'x',
      attachments: [{ filename: 'a.txt', content: 'aGk=' }],
    });

    // Act
    const page = await (await session.get(`/t/${t.team.id}/emails/${sent.data!.id}`)).text();
    const file = await session.get(`/t/${t.team.id}/emails/${sent.data!.id}/attachments/0`);
    const missing = await session.get(`/t/${t.team.id}/emails/${sent.data!.id}/attachments/1`);
    const theirs = await session.get(`/t/${t.team.id}/emails/${foreign.data!.id}/attachments/0`);

    // Assess
    expect(page).toContain('<h2>Attachments</h2>');
    expect(page).toContain(
      `href="/t/${t.team.id}/emails/${sent.data!.id}/attachments/0" download>invoice 42.pdf</a> (application/pdf, ${pdf.length} bytes)`,
    );
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''invoice%2042.pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    expect(missing.status).toBe(404);
    expect(theirs.status).toBe(404);
  });

  it("serves an email's raw MIME message as text, with its headers and body", async () => {
    const res = await session.get(`/t/${t.team.id}/emails/${ids.bob}/raw`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const mime = await res.text();
    expect(mime).toMatch(new RegExp(`^Subject: ${subjects.bob}\\r?$`, 'm'));
    expect(mime).toMatch(/^To: bob@example\.com\r?$/m);
    expect(mime).toMatch(/^Cc: Ann\.Copy@Example\.com\r?$/im);
    expect(mime).toContain('Hello bob');
  });
});
