import type { Deps } from '../../runtime/deps.ts';
import { setPause } from '../../table/broadcasts.ts';

export const resumeBroadcasts = (deps: Deps, scope: 'team' | 'region', target: string) =>
  setPause(deps, { scope, target, clear: true });
