/**
 * `npm run admin -- <resource> <action> [options]`: the operator CLI (teams, plans, keys).
 * It talks to the running local host (found through the state file `npm start` writes) or, with
 * `--table <name> [--region <region>]`, to a deployed stack using the ambient AWS credentials.
 */
import { parseArgs } from 'node:util';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps } from '@mailstack/core/runtime/deps';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { listTeams } from '@mailstack/core/domain/teams/list-teams';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { createApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { listApiKeys } from '@mailstack/core/domain/api-keys/list-api-keys';
import { revokeApiKey } from '@mailstack/core/domain/api-keys/revoke-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { releaseHeldEmails } from '@mailstack/core/domain/emails/release-held-emails';
import { PLAN_NAMES, type PlanName } from '@mailstack/core/domain/teams/plans';
import { readState } from '../lib/local/state.ts';
import { pauseBroadcasts } from '@mailstack/core/domain/broadcasts/pause-broadcasts';
import { resumeBroadcasts } from '@mailstack/core/domain/broadcasts/resume-broadcasts';
import { regionRates, regionRecovered, WINDOW_DAYS } from '@mailstack/core/domain/deliverability/guardrail';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { findUserByEmail } from '@mailstack/core/domain/people/user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createTeamFor } from '@mailstack/core/domain/people/create-team-for';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';
import { isRole } from '@mailstack/core/domain/people/roles';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { deleteMailbox } from '@mailstack/core/domain/mailboxes/delete-mailbox';
import { getMailbox } from '@mailstack/core/domain/mailboxes/get-mailbox';
import { listMailboxes } from '@mailstack/core/domain/mailboxes/list-mailboxes';
import { renameMailbox } from '@mailstack/core/domain/mailboxes/rename-mailbox';
import { createMailboxKey } from '@mailstack/core/domain/mailboxes/create-mailbox-key';
import { getMailboxLicense, licenseState, storageUsed } from '@mailstack/core/domain/mailboxes/license';
import { grantMailboxLicense } from '@mailstack/core/domain/mailboxes/grant-mailbox-license';
import { setMailboxTransport } from '@mailstack/core/domain/mailboxes/set-mailbox-transport';
import { isApiError } from '@mailstack/core/errors/api-error';
import { adoptDomain } from '@mailstack/core/domain/domains/create-domain';

const USAGE = `usage: npm run admin -- <command> [options]

  teams create --name <name> [--plan free|starter|pro|scale]
  teams list
  teams plan --team <id> --plan free|starter|pro|scale
  teams suspend --team <id>
  teams unsuspend --team <id>
  teams release --team <id>              (end the review of held emails: they go out)
  teams payment-blocked --team <id> [--clear]
  teams owners --team <id> --email <address> [--email <address> ...]   (addresses told of the team's trouble besides its owner-role people)
  keys create --team <id> [--name <name>] [--sending] [--domain <domain-id>]
  keys list --team <id>
  keys revoke --team <id> --key <key-id>
  broadcasts pause --team <id> | --delivery-region <region> [--minutes <n>] [--reason <text>]
                                         (403 broadcasts_paused on broadcast sends; a region pause
                                          clears on its own after --minutes, or without it once the
                                          region's platform bounce and complaint rates are back
                                          under the risk lines)
  broadcasts resume --team <id> | --delivery-region <region>
  users create --email <address> [--name <name>] [--password <password>] [--team <id> [--role owner|admin|member]]
                                         (without --team: a new team the person owns; prints a sign-in link)
  users link --email <address>           (a one-time dashboard sign-in link, 15 minutes)
  domains adopt --team <id> --name <domain>
                                         (the operator vouches for an SES identity of the account this
                                          deployment did not create: the team gets the domain with the
                                          identity's state; the adoption is recorded on the domain, and
                                          the service never deletes that identity)
  mailboxes create --team <id> --domain <domain-id> --local-part <part> --email <owner address> [--name <display name>]
                                         (the domain must be verified; its receiving is turned on)
  mailboxes list --team <id>
  mailboxes rename --team <id> --mailbox <id> [--local-part <part>] [--name <display name>]
  mailboxes delete --team <id> --mailbox <id>
  mailboxes key --team <id> --mailbox <id> [--name <name>] [--sending]
                                         (a mailbox key (mmb_) made for the mailbox's owner, for scripts and local use:
                                          read and draft, and send without approval with --sending; shown once.
                                          People make theirs on the mailbox's page)
  mailboxes license --team <id> [--seats <n> --storage-mb <n> --recipients <n> [--from <ISO date>] [--until <ISO date>]]
                                         (cloud mode: grants or replaces the team's mailbox license: seats, storage,
                                          outbound recipients per mailbox and period (default 30 days from now);
                                          without --seats, shows the license and its use. Self-hosted has no caps)
  mailboxes sending-off [--team <id>]    (the operator turns mailbox sending off, for one team or all: agents'
  mailboxes sending-on [--team <id>]      sends answer 503 and their drafts are kept; on again with sending-on)

Target: the running local host (\`npm start\`), or a deployed stack with --table <name> [--region <region>].`;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    plan: { type: 'string' },
    team: { type: 'string' },
    key: { type: 'string' },
    domain: { type: 'string' },
    email: { type: 'string', multiple: true },
    password: { type: 'string' },
    role: { type: 'string' },
    sending: { type: 'boolean', default: false },
    clear: { type: 'boolean', default: false },
    table: { type: 'string' },
    region: { type: 'string' },
    'delivery-region': { type: 'string' },
    minutes: { type: 'string' },
    reason: { type: 'string' },
    help: { type: 'boolean', default: false },
    mailbox: { type: 'string' },
    'local-part': { type: 'string' },
    seats: { type: 'string' },
    'storage-mb': { type: 'string' },
    recipients: { type: 'string' },
    from: { type: 'string' },
    until: { type: 'string' },
  },
});

const fail = (message: string): never => {
  console.error(`admin: ${message}`);
  process.exit(2);
};

/** The one --email a command about a person takes. */
const oneEmail = (): string => {
  const given = values.email ?? [];
  if (given.length !== 1 || !given[0])
    fail(`give exactly one --email for this command (got ${given.length})\n\n${USAGE}`);
  return given[0]!;
};

const need = (name: keyof typeof values): string => {
  const value = values[name];
  if (typeof value !== 'string' || value === '') fail(`--${name} is required for this command\n\n${USAGE}`);
  return value as string;
};

const plan = (): PlanName => {
  const p = need('plan');
  if (!PLAN_NAMES.includes(p as PlanName)) fail(`--plan must be one of ${PLAN_NAMES.join(', ')}; got ${p}`);
  return p as PlanName;
};

const env = (): NodeJS.ProcessEnv => {
  if (values.table)
    return {
      ...process.env,
      TABLE_NAME: values.table,
      AWS_REGION: values.region ?? process.env.AWS_REGION ?? 'us-east-1',
    };
  try {
    return { ...process.env, ...readState().env };
  } catch (error) {
    return fail((error as Error).message);
  }
};

const [resource, action] = positionals;
if (values.help || !resource || !action) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

const deps = createDeps(readConfig(env()));
/** Runs a command's use cases; a refusal of theirs (an ApiError) ends the command with its name and message. */
const orFail = async (work: () => Promise<void>): Promise<void> => {
  try {
    await work();
  } catch (error) {
    if (isApiError(error)) fail(`${error.name}: ${error.message}`);
    throw error;
  }
};

const existingTeam = async (): Promise<string> => {
  const id = need('team');
  if (!(await getTeam(deps, id))) fail(`no team with id ${id} (list them with: npm run admin -- teams list)`);
  return id;
};

switch (`${resource} ${action}`) {
  case 'teams create': {
    const team = await createTeam(deps, { name: need('name'), ...(values.plan ? { plan: plan() } : {}) });
    console.log(`team ${team.id} "${team.name}" created on the ${team.plan} plan`);
    console.log(`TEAM_ID=${team.id}`);
    break;
  }
  case 'teams list':
    for (const t of await listTeams(deps))
      console.log(`${t.id}  ${t.plan.padEnd(7)}  ${t.status.padEnd(9)}  ${t.name}`);
    break;
  case 'teams plan': {
    const team = await updateTeam(deps, await existingTeam(), { plan: plan() });
    console.log(`team ${team.id} is now on the ${team.plan} plan`);
    break;
  }
  case 'teams suspend':
  case 'teams unsuspend': {
    const team = await updateTeam(deps, await existingTeam(), {
      status: action === 'suspend' ? 'suspended' : 'active',
    });
    console.log(
      `team ${team.id} is now ${team.status}${team.status === 'suspended' ? '; its next send answers 403 team_suspended, in every running process (its keys still authenticate)' : ''}`,
    );
    break;
  }
  case 'teams release': {
    const n = await releaseHeldEmails(deps, await existingTeam());
    console.log(`${n} held email(s) released to the send queue`);
    break;
  }
  case 'teams payment-blocked': {
    const team = await updateTeam(deps, await existingTeam(), { paymentBlocked: !values.clear });
    console.log(
      `team ${team.id}: payment ${team.paymentBlocked ? 'blocked (new mail is held for review in its first 30 days)' : 'cleared'}`,
    );
    break;
  }
  case 'teams owners': {
    const emails = values.email ?? [];
    const bad = emails.filter((e) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e));
    if (emails.length === 0 || bad.length > 0)
      fail(
        `give each owner address with --email (one or more); ${bad.length ? `not an address: ${bad.join(', ')}` : 'none given'}`,
      );
    const team = await updateTeam(deps, await existingTeam(), { ownerEmails: emails });
    console.log(`team ${team.id}: owner notices go to ${team.ownerEmails.join(', ')}`);
    break;
  }
  case 'keys create': {
    const { key, secret } = await createApiKey(
      deps,
      {
        teamId: await existingTeam(),
        name: values.name ?? 'API key',
        permission: values.sending ? 'sending_access' : 'full_access',
        domainId: values.domain ?? null,
      },
      byOperator('admin CLI'),
    ).catch((error: unknown) => {
      if (isApiError(error))
        fail(`--domain ${values.domain}: ${error.name}: ${error.message} (GET /domains lists the team's domains)`);
      throw error;
    });
    console.log(
      `# key ${key.id} (${key.permission}${key.domainId ? `, domain ${key.domainId} only` : ''}); the secret is shown only now:`,
    );
    console.log(`RESEND_API_KEY=${secret}`);
    break;
  }
  case 'keys list':
    for (const k of await listApiKeys(deps, await existingTeam())) {
      console.log(
        `${k.id}  ${k.permission.padEnd(14)}  ${k.revoked ? 'revoked' : 'active '}  ${k.domainId ? `domain ${k.domainId}  ` : ''}${k.name}`,
      );
    }
    break;
  case 'keys revoke': {
    const ok = await revokeApiKey(deps, await existingTeam(), need('key'), byOperator('admin CLI'));
    if (!ok) fail(`the team has no key ${values.key} (list them with: npm run admin -- keys list --team <id>)`);
    console.log(
      `key ${values.key} revoked; its next request answers 401 invalid_api_key (SMTP 535), in every running process`,
    );
    break;
  }
  case 'broadcasts pause':
  case 'broadcasts resume': {
    const region = values['delivery-region'];
    const target =
      region ?? (values.team ? await existingTeam() : fail(`--team or --delivery-region is required\n\n${USAGE}`));
    const scope = region ? 'region' : 'team';
    if (action === 'resume') {
      await resumeBroadcasts(deps, scope, target);
      console.log(`broadcasts resumed for ${scope} ${target}`);
      break;
    }
    const minutes = values.minutes !== undefined ? Number(values.minutes) : undefined;
    if (minutes !== undefined && !(minutes > 0)) fail('--minutes must be a positive number');
    const until = minutes === undefined ? null : Date.now() + minutes * 60_000;
    const untilRecovered = scope === 'region' && until === null;
    await pauseBroadcasts(deps, scope, target, { until, reason: values.reason ?? null, untilRecovered });
    const ends = until
      ? ` until ${new Date(until).toISOString()}`
      : untilRecovered
        ? ' until its platform bounce and complaint rates are back under the risk lines'
        : ' until resumed';
    console.log(`broadcasts paused for ${scope} ${target}${ends}; transactional mail is unaffected`);
    if (untilRecovered) {
      const r = await regionRates(deps, target);
      console.log(
        `${target} over the last ${WINDOW_DAYS} days: ${r.sent} sent, bounce rate ${(r.bounce_rate * 100).toFixed(2)}%, complaint rate ${(r.complaint_rate * 100).toFixed(3)}%${(await regionRecovered(deps, target)) ? ' (already under the lines: the pause clears at the next broadcast send)' : ''}`,
      );
    }
    break;
  }
  case 'users create': {
    const role = values.role ?? 'owner';
    if (!isRole(role)) fail(`--role must be owner, admin or member; got ${role}`);
    const user = await createUser(deps, { email: oneEmail(), name: values.name ?? '', password: values.password });
    let team: Awaited<ReturnType<typeof createTeamFor>>;
    if (values.team) {
      await addMember(deps, (await getTeam(deps, await existingTeam()))!, user, role as 'owner');
      team = (await getTeam(deps, values.team))!;
    } else team = await createTeamFor(deps, user, `${values.name ?? user.email}'s team`);
    console.log(`user ${user.id} ${user.email} is ${values.team ? role : 'owner'} of team ${team.id} "${team.name}"`);
    console.log(`SIGN_IN_LINK=${await signInLink(deps, user)}`);
    break;
  }
  case 'users link': {
    const email = oneEmail();
    const user = await findUserByEmail(deps, email);
    if (!user)
      fail(`no user with the address ${email} (create one with: npm run admin -- users create --email <address>)`);
    console.log(`SIGN_IN_LINK=${await signInLink(deps, user!)}`);
    break;
  }
  case 'domains adopt': {
    const team = (await getTeam(deps, await existingTeam()))!;
    await orFail(async () => {
      const d = await adoptDomain(deps, team, need('name'), 'operator (admin CLI)');
      console.log(
        `domain ${d.id} ${d.name} adopted for team ${team.id}: ${d.status}${d.status === 'verified' ? '' : ' (it sends once SES verifies the identity: POST /domains/{id}/verify)'}; the service never deletes this identity`,
      );
    });
    break;
  }
  case 'mailboxes create':
  case 'mailboxes list':
  case 'mailboxes rename':
  case 'mailboxes delete': {
    const teamId = await existingTeam();
    await orFail(async () => {
      if (action === 'create') {
        const email = oneEmail();
        const owner = await findUserByEmail(deps, email);
        if (!owner)
          fail(
            `no user with the address ${email} (create one with: npm run admin -- users create --email <address> --team ${teamId} --role member)`,
          );
        const m = await createMailbox(deps, {
          teamId,
          domainId: need('domain'),
          localPart: need('local-part'),
          name: values.name,
          ownerUserId: owner!.id,
        });
        console.log(
          `mailbox ${m.id} ${m.address} (owner ${email}); mail to it is accepted once the domain's Receiving MX record is published`,
        );
      } else if (action === 'list') {
        for (const m of await listMailboxes(deps, teamId)) console.log(`${m.id}  ${m.address}  ${m.name ?? ''}`);
      } else if (action === 'rename') {
        const m = await renameMailbox(deps, teamId, need('mailbox'), {
          localPart: values['local-part'],
          name: values.name,
        });
        console.log(`mailbox ${m.id} is now ${m.address}${m.name ? ` (${m.name})` : ''}`);
      } else {
        const m = await deleteMailbox(deps, teamId, need('mailbox'));
        console.log(`mailbox ${m.id} ${m.address} deleted; mail to the address is no longer accepted`);
      }
    });
    break;
  }
  case 'mailboxes key': {
    const teamId = await existingTeam();
    await orFail(async () => {
      const mailbox = await getMailbox(deps, teamId, need('mailbox'));
      const { key, secret } = await createMailboxKey(deps, {
        teamId,
        mailboxId: mailbox.id,
        actorUserId: mailbox.ownerUserId,
        name: values.name ?? 'Mailbox key (admin CLI)',
        send: values.sending,
      });
      console.log(
        `# mailbox key ${key.id} for ${mailbox.address} (${key.permissions.join(', ')}); the secret is shown only now:`,
      );
      console.log(`MAILBOX_KEY=${secret}`);
    });
    break;
  }
  case 'mailboxes license': {
    const teamId = await existingTeam();
    await orFail(async () => {
      if (values.seats !== undefined) {
        const whole = (name: 'seats' | 'storage-mb' | 'recipients') => {
          const n = Number(need(name));
          if (!Number.isSafeInteger(n) || n < 0) fail(`--${name} must be a whole number (got ${values[name]})`);
          return n;
        };
        const l = await grantMailboxLicense(deps, teamId, {
          seats: whole('seats'),
          storageBytes: whole('storage-mb') * 1024 * 1024,
          recipientAllowance: whole('recipients'),
          periodStart: values.from,
          periodEnd: values.until,
        });
        console.log(
          `mailbox license of team ${teamId}: ${l.seats} seat(s), ${l.storageBytes} bytes of storage, ${l.recipientAllowance} recipients per mailbox from ${l.periodStart} until ${l.periodEnd}`,
        );
      } else {
        const l = await getMailboxLicense(deps, teamId);
        if (!l)
          console.log(
            `team ${teamId} has no mailbox license${deps.config.CLOUD ? ': its mailboxes receive mail but cannot draft or send' : ''}`,
          );
        else
          console.log(
            `mailbox license of team ${teamId}: ${licenseState(l, deps.clock.now())}, ${l.seats} seat(s), ${await storageUsed(deps, teamId)} of ${l.storageBytes} bytes used, ${l.recipientAllowance} recipients per mailbox from ${l.periodStart} until ${l.periodEnd}`,
          );
      }
      if (!deps.config.CLOUD)
        console.log('note: this instance is self-hosted (CLOUD is not true): mailbox licenses are not applied');
    });
    break;
  }
  case 'mailboxes sending-off':
  case 'mailboxes sending-on': {
    const teamId = values.team ? await existingTeam() : undefined;
    await setMailboxTransport(deps, action === 'sending-on', teamId);
    console.log(
      `mailbox sending ${action === 'sending-on' ? 'on' : 'off'} for ${teamId ? `team ${teamId}` : 'every team'}${action === 'sending-off' ? ": agents' sends answer 503 and their drafts are kept" : ''}`,
    );
    break;
  }
  default:
    fail(`unknown command "${resource} ${action}"\n\n${USAGE}`);
}
