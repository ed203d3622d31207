import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';

/** The domain names the deployment's teams hold (each name's claim, on its index). */
const heldDomainNames = async (deps: Deps): Promise<string[]> =>
  (await queryAll(deps, { ...keys.domain.heldPartition(), project: ['name'] })).map((i) => String(i.name)).sort();

/**
 * Keeps the inbound receipt rule naming the domains the deployment's teams hold, after a domain
 * comes or goes. The whole set is read fresh and written whole, then read again: a change that
 * landed meanwhile (another team's create or delete) is written too, so the last writer leaves
 * the set as the table has it. Never fails the domain change that called it: an error is logged
 * (the next change, or the local host's start, writes the set again). No rule configured: nothing.
 */
export const syncInboundRecipients = async (deps: Deps): Promise<void> => {
  if (!deps.inboundRecipients) return;
  try {
    let names = await heldDomainNames(deps);
    for (let round = 0; round < 3; round++) {
      const outcome = await deps.inboundRecipients.sync(names);
      if (outcome === 'over-cap')
        deps.logger.warn(
          'inbound receipt rule: more held domains than one rule names; it takes every verified domain',
          {
            held: names.length,
          },
        );
      const now = await heldDomainNames(deps);
      if (now.join(',') === names.join(',')) return;
      names = now;
    }
  } catch (error) {
    deps.logger.error('inbound receipt rule: could not name the held domains', { error });
  }
};
