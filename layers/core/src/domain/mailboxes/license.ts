import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters, batchGetItems, getItem, queryAll, type Write } from '../../table/ops.ts';
import type { Mailbox } from './mailbox.ts';
import { MailboxAgentError } from './agent-error.ts';

/**
 * A team's mailbox license (cloud mode): seats (how many of its mailboxes may draft and send),
 * storage bytes (received mail, drafts and their attachments), and an outbound allowance of
 * recipients per mailbox for each license period. The operator grants it with the admin CLI.
 * Self-hosted instances have no license and no caps.
 */
export interface MailboxLicense {
  readonly teamId: string;
  readonly seats: number;
  readonly storageBytes: number;
  /** Recipients each mailbox may send to within one period (one message to three addresses uses three). */
  readonly recipientAllowance: number;
  /** The period the license runs (ISO); the allowance counts within it. */
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly grantedAt: string;
}

export type LicenseState = 'active' | 'expired' | 'not_started';

export const licenseFromItem = (i: Record<string, any>): MailboxLicense => ({
  teamId: i.team_id,
  seats: Number(i.seats),
  storageBytes: Number(i.storage_bytes),
  recipientAllowance: Number(i.recipient_allowance),
  periodStart: i.period_start,
  periodEnd: i.period_end,
  grantedAt: i.granted_at,
});

/** A team's mailbox license, if one was granted. */
export const getMailboxLicense = async (deps: Deps, teamId: string): Promise<MailboxLicense | undefined> => {
  const item = await getItem(deps, keys.mailbox.license(teamId));
  return item ? licenseFromItem(item) : undefined;
};

export const licenseState = (l: MailboxLicense, now: number): LicenseState =>
  now < Date.parse(l.periodStart) ? 'not_started' : now >= Date.parse(l.periodEnd) ? 'expired' : 'active';

/** Bytes the team's mailboxes hold. */
export const storageUsed = async (deps: Deps, teamId: string): Promise<number> =>
  Number((await getItem(deps, keys.mailbox.storage(teamId)))?.bytes ?? 0);

/** Recipients a mailbox has used of its allowance in the license's period. */
const allowanceUsed = async (deps: Deps, mailbox: Mailbox, license: MailboxLicense): Promise<number> =>
  Number((await getItem(deps, keys.mailbox.allowance(mailbox.teamId, mailbox.id, license.periodStart)))?.used ?? 0);

/**
 * What a mailbox may do under its team's license: nothing to check on a self-hosted instance;
 * in cloud mode an active license with a seat for this mailbox (its team's mailboxes in creation
 * order, the first `seats` of them), else 409 license_required.
 */
export const mailboxEntitlement = async (deps: Deps, mailbox: Mailbox): Promise<MailboxLicense | undefined> => {
  if (!deps.config.CLOUD) return undefined;
  const license = await getMailboxLicense(deps, mailbox.teamId);
  if (!license)
    throw new MailboxAgentError(
      'license_required',
      `The team of ${mailbox.address} has no mailbox license: the operator grants one (npm run admin -- mailboxes license). Reading mail still works.`,
    );
  const state = licenseState(license, deps.clock.now());
  if (state !== 'active') {
    throw new MailboxAgentError(
      'license_required',
      state === 'expired'
        ? `The team's mailbox license expired at ${license.periodEnd}: drafting and sending wait for the operator to renew it.`
        : `The team's mailbox license starts at ${license.periodStart}: drafting and sending wait until then.`,
    );
  }
  const mailboxes = await queryAll(deps, {
    pk: keys.mailbox.partition(mailbox.teamId),
    prefix: keys.mailbox.prefix,
    project: ['id'],
  });
  const order = mailboxes.map((m) => m.id as string).sort();
  const seat = order.indexOf(mailbox.id);
  if (seat < 0 || seat >= license.seats) {
    throw new MailboxAgentError(
      'license_required',
      `The team's mailbox license has ${license.seats} seat(s), all taken by older mailboxes than ${mailbox.address}: the operator can grant more seats, or an older mailbox can be deleted.`,
    );
  }
  return license;
};

/** The write that adds received mail to the team's storage, in the transaction that stores it (never refused: mail is not lost). */
export const storageReceived = (teamId: string, bytes: number): Write => ({
  update: keys.mailbox.storage(teamId),
  change: { add: { bytes }, set: { type: 'mailbox_storage' } },
});

/**
 * Changes the bytes a team's mailboxes hold: a positive change under a license must fit its
 * storage (409 storage_exhausted otherwise); a release or uncapped use always applies.
 */
export const changeStorage = async (
  deps: Deps,
  teamId: string,
  bytes: number,
  license?: MailboxLicense,
): Promise<void> => {
  if (bytes === 0) return;
  const capped = license !== undefined && bytes > 0;
  const done = await addToCounters(deps, keys.mailbox.storage(teamId), {
    add: { bytes },
    set: { type: 'mailbox_storage' },
    ...(capped ? { ceilings: { bytes: license.storageBytes } } : {}),
  });
  if (!done) {
    const used = await storageUsed(deps, teamId);
    throw new MailboxAgentError(
      'storage_exhausted',
      `Mailbox storage is full: ${used} of ${license!.storageBytes} bytes used, and this needs ${bytes} more. Delete drafts or ask the operator for more storage.`,
    );
  }
};

/**
 * Reserves `recipients` units of the mailbox's outbound allowance for the license period, or
 * refuses with 409 allowance_exhausted. Without a license (self-hosted) nothing is counted.
 */
export const reserveAllowance = async (
  deps: Deps,
  mailbox: Mailbox,
  recipients: number,
  license: MailboxLicense | undefined,
): Promise<void> => {
  if (!license) return;
  const done =
    recipients <= license.recipientAllowance &&
    (await addToCounters(deps, keys.mailbox.allowance(mailbox.teamId, mailbox.id, license.periodStart), {
      add: { used: recipients },
      ceilings: { used: license.recipientAllowance },
      set: { type: 'mailbox_allowance', period_end: license.periodEnd },
      expiresAt: Math.floor(Date.parse(license.periodEnd) / 1000) + 90 * 86_400,
    }));
  if (!done) {
    const used = await allowanceUsed(deps, mailbox, license);
    throw new MailboxAgentError(
      'allowance_exhausted',
      `${mailbox.address} has used ${used} of its ${license.recipientAllowance} outbound recipients this license period (until ${license.periodEnd}); this message needs ${recipients}. The draft is kept.`,
    );
  }
};

/** Gives back units reserved for a send that did not happen. */
export const refundAllowance = async (
  deps: Deps,
  mailbox: Mailbox,
  recipients: number,
  license: MailboxLicense | undefined,
): Promise<void> => {
  if (!license) return;
  await addToCounters(deps, keys.mailbox.allowance(mailbox.teamId, mailbox.id, license.periodStart), {
    add: { used: -recipients },
  });
};

/** Whether the operator lets a team's mailboxes send: on unless turned off for every team or for this one. */
export const mailboxTransportEnabled = async (deps: Deps, teamId: string): Promise<boolean> => {
  const [all, team] = await batchGetItems(deps, [keys.mailbox.transport('*'), keys.mailbox.transport(teamId)]).then(
    (rows) => [
      rows.find((r) => r.sk === keys.mailbox.transport('*').sk),
      rows.find((r) => r.sk === keys.mailbox.transport(teamId).sk),
    ],
  );
  return all?.enabled !== false && team?.enabled !== false;
};
