import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { createUser } from '@mailstack/core/domain/people/users';
import { addMember } from '@mailstack/core/domain/people/memberships';
import { createMailbox } from '@mailstack/core/domain/mailboxes/manage-mailboxes';
import { local, testDeps } from './local.ts';
import { sendingTeam } from './sending.ts';

/** A team with a verified domain and a person who can own its mailboxes. */
export const mailboxTeam = async () => {
  const t = await sendingTeam();
  const d = testDeps();
  const owner = await createUser(d, { email: `owner-${randomUUID()}@people.example.com`, name: 'Owner' });
  await addMember(d, (await getTeam(d, t.team.id))!, owner, 'member');
  return {
    ...t,
    owner,
    /** A mailbox `<localPart>@<the team's domain>` owned by the team's person. */
    mailbox: (localPart: string, name?: string) => createMailbox(d, { teamId: t.team.id, domainId: t.domainId, localPart, name, ownerUserId: owner.id }),
  };
};

/** An SMTP client of the local inbound listener (the mailboxes' MX), as any sending server is. */
export const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port: local().inbound.port, secure: false, ignoreTLS: true });

/** Reads until `ok` holds or `ms` pass (mail handed on by the SES stand-in arrives a moment later). */
export const waitFor = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};
