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

/**
 * A segment named `name` holding `count` new contacts (`listener<i>@example.com`, first name
 * `L<i>`), made in one batch request: the audience of a bench or cost run's broadcast.
 */
export const segmentOfListeners = async (
  host: LocalHost,
  team: { readonly secret: string; readonly resend: Resend },
  name: string,
  count: number,
): Promise<string> => {
  const segment = (await team.resend.segments.create({ name })).data!.id;
  const contacts = Array.from({ length: count }, (_, i) => ({
    email: `listener${i}@example.com`,
    first_name: `L${i}`,
    segments: [{ id: segment }],
  }));
  const made = await fetch(`${host.baseUrl}/contacts/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${team.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(contacts),
  });
  if (made.status !== 200) throw new Error(`contacts batch failed: ${await made.text()}`);
  return segment;
};
