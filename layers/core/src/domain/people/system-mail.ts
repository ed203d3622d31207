import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem } from '../../table/ops.ts';
import { parseMailbox } from '../emails/rules/addresses.ts';
import { createTeam } from '../teams/manage-teams.ts';
import { getTeam, type Team } from '../teams/team.ts';
import { findDomainByName } from '../domains/domain.ts';
import { createDomain } from '../domains/create-domain.ts';
import { verifyDomain } from '../domains/manage-domain.ts';
import { sendEmail } from '../emails/send-emails.ts';
import { validate } from '../../schemas/validate.ts';
import { SendEmailRequest } from '../../schemas/emails.ts';
import { CreateDomainRequest } from '../../schemas/domains.ts';

/**
 * The platform's own team, which sends the service's mail (invitations, sign-in links, password
 * resets) from SYSTEM_SENDER through the same send use case as every team: rules, queue, provider
 * and events alike, so locally the mail lands in the local inbox.
 */
const systemTeam = async (deps: Deps): Promise<Team> => {
  const pointer = await getItem(deps, keys.system.team());
  if (pointer) {
    const team = await getTeam(deps, pointer.team_id);
    if (team) return team;
  }
  const made = await createTeam(deps, { name: 'mailstack system mail', plan: 'scale' });
  if (await putItem(deps, { ...keys.system.team(), type: 'system_team', team_id: made.id }, { exists: false })) return made;
  // Another process made it first: use theirs.
  return (await getTeam(deps, (await getItem(deps, keys.system.team()))!.team_id))!;
};

const ensureSenderDomain = async (deps: Deps, team: Team, name: string): Promise<void> => {
  const domain = (await findDomainByName(deps, team.id, name)) ?? (await createDomain(deps, team, validate(CreateDomainRequest, { name })));
  if (domain.status !== 'verified') await verifyDomain(deps, team.id, domain.id);
};

/** Sends one message of the service to a person. */
export const sendSystemEmail = async (deps: Deps, message: { to: string; subject: string; text: string; html: string }): Promise<{ id: string }> => {
  const from = parseMailbox(deps.config.SYSTEM_SENDER, 'SYSTEM_SENDER');
  const team = await systemTeam(deps);
  await ensureSenderDomain(deps, team, from.address.split('@')[1]!);
  return sendEmail(deps, { team, keyId: 'system', scope: 'full_access', domainId: null }, validate(SendEmailRequest, {
    from: deps.config.SYSTEM_SENDER, to: [message.to], subject: message.subject, text: message.text, html: message.html,
  }));
};

/** True for the platform's own team (kept out of people's team lists). */
export const isSystemTeam = async (deps: Deps, teamId: string): Promise<boolean> => (await getItem(deps, keys.system.team()))?.team_id === teamId;
