import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem } from '../../table/ops.ts';
import { parseMailbox } from '../emails/rules/addresses.ts';
import { createTeam } from '../teams/create-team.ts';
import { getTeam, type Team } from '../teams/team.ts';
import { findDomainByName } from '../domains/domain.ts';
import { createDomain } from '../domains/create-domain.ts';
import { verifyDomain } from '../domains/domain-verification.ts';
import { sendEmail } from '../emails/send-emails.ts';
import { validate } from '../../schemas/validate.ts';
import { SendEmailRequest } from '../../schemas/emails.ts';
import { CreateDomainRequest } from '../../schemas/domains.ts';

/**
 * The platform's own team, which sends all of the service's mail (invitations, sign-in links,
 * password resets, the owner notices of spec §6) from SYSTEM_SENDER through the same send use case
 * as every team: rules, queue, provider and events alike, so locally the mail lands in the local
 * inbox. SYSTEM_TEAM_ID names it when the operator set one up (on AWS, a team with a verified
 * domain for the sender); otherwise the service makes its own on first use and remembers it.
 */
const systemTeam = async (deps: Deps): Promise<{ team: Team; made: boolean }> => {
  const configured = deps.config.SYSTEM_TEAM_ID;
  if (configured) {
    const team = await getTeam(deps, configured);
    if (!team)
      throw new Error(
        `SYSTEM_TEAM_ID names the team ${configured}, which does not exist: create it (npm run admin -- teams create) or unset SYSTEM_TEAM_ID to let the service make its own`,
      );
    return { team, made: false };
  }
  return { team: await ownSystemTeam(deps), made: true };
};

const ownSystemTeam = async (deps: Deps): Promise<Team> => {
  const pointer = await getItem(deps, keys.system.team());
  if (pointer) {
    const team = await getTeam(deps, pointer.team_id);
    if (team) return team;
  }
  const made = await createTeam(deps, { name: 'mailstack system mail', plan: 'scale' });
  if (await putItem(deps, { ...keys.system.team(), type: 'system_team', team_id: made.id }, { exists: false }))
    return made;
  // Another process made it first: use theirs.
  return (await getTeam(deps, (await getItem(deps, keys.system.team()))!.team_id))!;
};

const ensureSenderDomain = async (deps: Deps, team: Team, name: string): Promise<void> => {
  const domain =
    (await findDomainByName(deps, team.id, name)) ??
    (await createDomain(deps, team, validate(CreateDomainRequest, { name })));
  if (domain.status !== 'verified') await verifyDomain(deps, team.id, domain.id);
};

/** What the service sends: to one person or several (a team's owners), text and optionally HTML. */
export interface SystemMessage {
  readonly to: string | readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly tags?: readonly { name: string; value: string }[];
}

/** Sends one message of the service, as the system team from the system sender. */
export const sendSystemEmail = async (deps: Deps, message: SystemMessage): Promise<{ id: string }> => {
  const from = parseMailbox(deps.config.SYSTEM_SENDER, 'SYSTEM_SENDER');
  const { team, made } = await systemTeam(deps);
  // The service's own team gets its sender domain; an operator's team brings a verified one.
  if (made) await ensureSenderDomain(deps, team, from.address.split('@')[1]!);
  return sendEmail(
    deps,
    { team, keyId: 'system', scope: 'full_access', domainId: null },
    validate(SendEmailRequest, {
      from: deps.config.SYSTEM_SENDER,
      to: typeof message.to === 'string' ? [message.to] : [...message.to],
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.tags ? { tags: [...message.tags] } : {}),
    }),
  );
};
