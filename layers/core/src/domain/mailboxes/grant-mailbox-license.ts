import { licenseFromItem, type MailboxLicense } from './license.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';

/** What a grant sets; the period defaults to 30 days from now. */
export interface LicenseGrant {
  readonly seats: number;
  readonly storageBytes: number;
  readonly recipientAllowance: number;
  readonly periodStart?: string | undefined;
  readonly periodEnd?: string | undefined;
}

const wholeAtLeast = (name: string, value: number, min: number): number => {
  if (!Number.isSafeInteger(value) || value < min)
    throw validationError(`\`${name}\` must be a whole number of at least ${min}; got ${value}.`);
  return value;
};

const isoTime = (name: string, value: string): string => {
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw validationError(`\`${name}\` must be an ISO 8601 date or date-time; got \`${value}\`.`);
  return new Date(at).toISOString();
};

/** Grants (or replaces) a team's mailbox license. A new period starts a new allowance count. */
export const grantMailboxLicense = async (deps: Deps, teamId: string, grant: LicenseGrant): Promise<MailboxLicense> => {
  const now = deps.clock.now();
  const periodStart = grant.periodStart ? isoTime('periodStart', grant.periodStart) : new Date(now).toISOString();
  const periodEnd = grant.periodEnd
    ? isoTime('periodEnd', grant.periodEnd)
    : new Date(Date.parse(periodStart) + 30 * 86_400_000).toISOString();
  if (Date.parse(periodEnd) <= Date.parse(periodStart))
    throw validationError(`\`periodEnd\` (${periodEnd}) must come after \`periodStart\` (${periodStart}).`);
  const item = {
    ...keys.mailbox.license(teamId),
    type: 'mailbox_license',
    team_id: teamId,
    seats: wholeAtLeast('seats', grant.seats, 0),
    storage_bytes: wholeAtLeast('storageBytes', grant.storageBytes, 0),
    recipient_allowance: wholeAtLeast('recipientAllowance', grant.recipientAllowance, 0),
    period_start: periodStart,
    period_end: periodEnd,
    granted_at: new Date(now).toISOString(),
  };
  await putItem(deps, item);
  return licenseFromItem(item);
};
