import type { Deps } from '../../runtime/deps.ts';
import type { SenderTenant } from '../../ports/sender-tenants.ts';
import type { TransportError } from '../../ports/mail-transport.ts';
import { keys } from '../../table/keys.ts';
import { getItem, updateItem } from '../../table/ops.ts';
import { pauseTeam } from './pause-team.ts';
import { loadDomain } from '../domains/domain.ts';

/** The metric a team's pause names when SES paused the team's own tenant (its findings, not ours). */
export const TENANT_PAUSE_METRIC = 'ses_tenant';

/** What the team's row records of its tenant: its names and the `<region>/<domain id>` pairs made ready. */
interface TenantRecord {
  readonly tenant_name: string;
  readonly configuration_set: string;
  readonly ready: readonly string[];
}

/** This process's tenants made ready, by deps: `<team>|<region>/<domain id>`. */
const known = new WeakMap<Deps, Map<string, SenderTenant>>();

/**
 * The team's tenant for a send from its domain `domainId` in `region`, when teams send as tenants
 * (SES_TENANTS; otherwise undefined): made ready once per team, region and domain (the tenant,
 * its configuration set, the domain's identity associated, the reputation policy), recorded on the
 * team's row, then read from there or from this process's memory.
 */
export const tenantFor = async (
  deps: Deps,
  teamId: string,
  region: string,
  domainId: string,
): Promise<SenderTenant | undefined> => {
  if (!deps.tenants) return undefined;
  const cache = known.get(deps) ?? new Map<string, SenderTenant>();
  known.set(deps, cache);
  const pair = `${region}/${domainId}`;
  const key = `${teamId}|${pair}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const recorded = (await getItem(deps, keys.team.item(teamId), false))?.ses_tenant as TenantRecord | undefined;
  let tenant: SenderTenant;
  if (recorded?.ready.includes(pair)) {
    tenant = { tenantName: recorded.tenant_name, configurationSet: recorded.configuration_set };
  } else {
    const domain = (await loadDomain(deps, teamId, domainId)).name;
    tenant = await deps.tenants.ensure({ teamId, region, domain });
    const record: TenantRecord = {
      tenant_name: tenant.tenantName,
      configuration_set: tenant.configurationSet,
      ready: [...(recorded?.ready ?? []), pair],
    };
    await updateItem(deps, keys.team.item(teamId), { set: { ses_tenant: record } }, { exists: true });
  }
  cache.set(key, tenant);
  return tenant;
};

/**
 * After a send naming the team's tenant was refused: when SES has paused that tenant (its own
 * reputation policy acting on the team's mail), the team's sending is paused (sending_paused, with
 * deliverability.paused once per episode) and true is returned; the account's own pause, or any
 * other refusal, is not the team's (false).
 */
export const pauseForTenant = async (
  deps: Deps,
  teamId: string,
  region: string,
  tenant: SenderTenant | undefined,
  error: TransportError,
): Promise<boolean> => {
  if (!deps.tenants || !tenant) return false;
  if ((error.cause as Error | undefined)?.name !== 'SendingPausedException') return false;
  if (!(await deps.tenants.paused({ tenantName: tenant.tenantName, region }))) return false;
  await pauseTeam(deps, teamId, {
    metric: TENANT_PAUSE_METRIC,
    rate: 0,
    limit: 0,
    window_days: 0,
    tenant: tenant.tenantName,
    region,
  });
  return true;
};

/**
 * Lifts the team's pause for its tenant, once SES took the team's mail again (a held email went
 * through): the accept path reads only the team's row, never SES.
 */
export const liftTenantPause = async (deps: Deps, teamId: string): Promise<void> => {
  await updateItem(
    deps,
    keys.team.item(teamId),
    { remove: ['sending_paused'] },
    { attr: 'sending_paused.metric', eq: TENANT_PAUSE_METRIC },
  );
};
