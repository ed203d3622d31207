import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { createMailboxKey } from '@mailstack/core/domain/mailboxes/create-mailbox-key';
import { grantMailboxLicense, type LicenseGrant } from '@mailstack/core/domain/mailboxes/grant-mailbox-license';
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
    mailbox: (localPart: string, name?: string) =>
      createMailbox(d, { teamId: t.team.id, domainId: t.domainId, localPart, name, ownerUserId: owner.id }),
  };
};

/** An SMTP client of the local inbound listener (the mailboxes' MX), as any sending server is. */
export const mx = () =>
  nodemailer.createTransport({ host: '127.0.0.1', port: local().inbound.port, secure: false, ignoreTLS: true });

/**
 * A team with a mailbox ready for agents: a license (the test host runs in cloud mode), the
 * mailbox, and its owner's keys: one that may send, one that needs approval.
 */
export const agentMailbox = async (options: { license?: Partial<LicenseGrant> | false; localPart?: string } = {}) => {
  const t = await mailboxTeam();
  const d = testDeps();
  if (options.license !== false) {
    await grantMailboxLicense(d, t.team.id, {
      seats: 5,
      storageBytes: 50 * 1024 * 1024,
      recipientAllowance: 1000,
      ...options.license,
    });
  }
  const m = await t.mailbox(options.localPart ?? 'agent', 'Agent Desk');
  const sender = await createMailboxKey(d, {
    teamId: t.team.id,
    mailboxId: m.id,
    actorUserId: t.owner.id,
    name: 'sender',
    send: true,
  });
  const drafter = await createMailboxKey(d, {
    teamId: t.team.id,
    mailboxId: m.id,
    actorUserId: t.owner.id,
    name: 'drafter',
    send: false,
  });
  return {
    ...t,
    m,
    sendKey: sender.secret,
    draftKey: drafter.secret,
    keyIds: { sender: sender.key.id, drafter: drafter.key.id },
  };
};

/** A call of the mailbox agent API (dashboard origin) with a key; the body as JSON when it is not a string. */
export const agent = async (
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await fetch(`${local().dashboardUrl}/api/mailbox-agent${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
};

/** A new draft's body: both attachment arrays present, as the API requires. */
export const newDraft = (fields: Record<string, unknown> = {}) => ({
  expectedRevision: 0,
  to: ['reader@customer.example.org'],
  subject: 'Hello',
  text: 'Hi there.',
  retainedAttachments: [],
  uploads: [],
  ...fields,
});
