import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import type { UpdateDomainRequest } from '../../schemas/domains.ts';
import type { Pagination } from '../../schemas/common.ts';
import { queryPage } from '../../table/query-page.ts';
import { domainFromItem, loadDomain, type Domain, type DomainStatus } from './domain.ts';

const setStatus = async (deps: Deps, d: Domain, status: DomainStatus): Promise<Domain> => {
  if (d.status === status) return d;
  await deps.db.send(new UpdateCommand({
    TableName: deps.table,
    Key: keys.domain.item(d.teamId, d.id),
    UpdateExpression: 'SET #s = :s',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':s': status },
  }));
  return { ...d, status };
};

/** Asks the provider for the domain's state, recording the outcome. */
const refresh = async (deps: Deps, d: Domain): Promise<Domain> => {
  const identity = await deps.identities.get({ domain: d.name, region: d.region });
  return setStatus(deps, d, identity.verified ? 'verified' : identity.failed ? 'failed' : 'pending');
};

/** Reads a domain; a pending one is re-checked with the provider so the status is live. */
export const getDomain = async (deps: Deps, teamId: string, id: string): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  return d.status === 'pending' ? refresh(deps, d) : d;
};

/** Starts (or repeats) verification of a domain. */
export const verifyDomain = async (deps: Deps, teamId: string, id: string): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  if (d.status === 'verified') return d;
  return refresh(deps, await setStatus(deps, d, 'pending'));
};

/** A page of the team's domains, newest first. */
export const listDomains = async (deps: Deps, teamId: string, page: Pagination) => {
  const { items, hasMore } = await queryPage(deps, { pk: keys.domain.partition(teamId), prefix: keys.domain.prefix }, page);
  return { domains: items.map(domainFromItem), hasMore };
};

/** Changes the tracking switches of a domain. */
export const updateDomain = async (deps: Deps, teamId: string, id: string, change: UpdateDomainRequest): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.open_tracking !== undefined) { sets.push('open_tracking = :o'); values[':o'] = change.open_tracking; }
  if (change.click_tracking !== undefined) { sets.push('click_tracking = :c'); values[':c'] = change.click_tracking; }
  if (change.tracking_subdomain !== undefined) { sets.push('tracking_subdomain = :t'); values[':t'] = change.tracking_subdomain; }
  if (sets.length === 0) return d;
  const out = await deps.db.send(new UpdateCommand({
    TableName: deps.table,
    Key: keys.domain.item(teamId, id),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  }));
  return domainFromItem(out.Attributes ?? {});
};

/** Deletes a domain and its provider identity. */
export const deleteDomain = async (deps: Deps, teamId: string, id: string): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  await deps.db.send(new TransactWriteCommand({
    TransactItems: [
      { Delete: { TableName: deps.table, Key: keys.domain.item(teamId, id) } },
      { Delete: { TableName: deps.table, Key: keys.domain.nameGuard(teamId, d.name) } },
    ],
  }));
  await deps.identities.remove({ domain: d.name, region: d.region });
  return d;
};
