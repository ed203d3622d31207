import type { Deps } from '../../runtime/deps.ts';
import { setPause } from '../../table/broadcasts.ts';

/**
 * Operator controls (admin CLI): pause broadcasts for a team (until a time, or until lifted) or
 * a delivery region (until a time, or `untilRecovered`: until the region's platform bounce and
 * complaint rates are back under the risk lines), or lift the pause.
 */
export const pauseBroadcasts = (
  deps: Deps,
  scope: 'team' | 'region',
  target: string,
  options: { until?: number | null; reason?: string | null; untilRecovered?: boolean } = {},
) =>
  setPause(deps, {
    scope,
    target,
    until: options.until ?? null,
    reason: options.reason ?? null,
    untilRecovered: scope === 'region' && options.untilRecovered === true,
  });
