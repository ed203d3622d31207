import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import type { UpdateDomainRequest } from '../../schemas/domains.ts';
import { domainEventData, domainFromItem, loadDomain, type Domain } from './domain.ts';
import { recordEvent } from '../events/record-event.ts';

/** The 409 for a domain that still has mailboxes: receiving stays on and the domain stays while mail to them is accepted. */
export const mailboxesRemain = (d: Domain) =>
  new ApiError(
    'conflict',
    `The domain ${d.name} has ${d.mailboxCount} mailbox(es): delete them first (receiving cannot be turned off, nor the domain deleted, while mail to them is accepted).`,
  );

/** Changes the tracking switches and receiving of a domain. */
export const updateDomain = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: UpdateDomainRequest,
): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  const receiving =
    change.capabilities?.receiving === undefined ? undefined : change.capabilities.receiving === 'enabled';
  const set = Object.fromEntries(
    Object.entries({
      open_tracking: change.open_tracking,
      click_tracking: change.click_tracking,
      tracking_subdomain: change.tracking_subdomain,
      ...(receiving === undefined || receiving === d.receiving
        ? {}
        : { receiving, receiving_region: receiving ? deps.config.AWS_REGION : null }),
    }).filter(([, value]) => value !== undefined),
  );
  if (Object.keys(set).length === 0) return d;
  // Receiving stays on while a mailbox lives on the domain (its mail would have nowhere to go).
  const when =
    receiving === false
      ? {
          and: [
            { exists: true },
            {
              or: [
                { attr: 'mailbox_count', absent: true as const },
                { attr: 'mailbox_count', lt: 1 },
              ],
            },
          ],
        }
      : { exists: true };
  const out = await updateItem(deps, keys.domain.item(teamId, id), { set }, when);
  if (!out) {
    if (receiving === false && (await loadDomain(deps, teamId, id)).mailboxCount > 0) throw mailboxesRemain(d);
    throw notFound('Domain');
  }
  const next = domainFromItem(out);
  await recordEvent(deps, teamId, 'domain.updated', domainEventData(next, deps.config));
  return next;
};
