/**
 * A team for a bench or cost run: a full-access API key, a Resend client on it, and a verified
 * sending domain. Made through the use cases (setup, not measured): no API request is made, so
 * nothing is queued (no request log) before a run starts counting.
 */
import { Resend } from 'resend';
import { createApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { createDomain } from '@mailstack/core/domain/domains/create-domain';
import { verifyDomain } from '@mailstack/core/domain/domains/domain-verification';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import type { PlanName } from '@mailstack/core/domain/teams/plans';
import type { LocalHost } from '../lib/local/host.ts';

export const sendingTeam = async (
  host: LocalHost,
  input: { readonly name: string; readonly domain: string; readonly plan?: PlanName },
) => {
  const deps = host.deps;
  const team = await createTeam(deps, { name: input.name, ...(input.plan ? { plan: input.plan } : {}) });
  const { key, secret } = await createApiKey(
    deps,
    { teamId: team.id, name: input.name, permission: 'full_access' },
    byOperator('bench script'),
  );
  const domain = await verifyDomain(deps, team.id, (await createDomain(deps, team, { name: input.domain })).id);
  return { team, key, secret, domain, resend: new Resend(secret, { baseUrl: host.baseUrl }) };
};
