import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { recordEvent } from '../events/record-event.ts';
import { teamPageUrl } from '../teams/team.ts';

/** What paused a team's sends: the figures `sending_paused` and deliverability.paused carry. */
export interface PauseEpisode {
  readonly metric: string;
  readonly rate: number;
  readonly limit: number;
  readonly window_days: number;
}

/**
 * Pauses the team's sends (its row's `sending_paused` holds `episode`, with any detail beside),
 * and records deliverability.paused once per episode: a team already paused is left as it is.
 */
export const pauseTeam = async (
  deps: Deps,
  teamId: string,
  episode: PauseEpisode & Record<string, unknown>,
): Promise<void> => {
  const newly = await updateItem(
    deps,
    keys.team.item(teamId),
    { set: { sending_paused: episode } },
    {
      and: [
        { exists: true },
        {
          or: [
            { attr: 'sending_paused', absent: true },
            { attr: 'sending_paused', eq: null },
          ],
        },
      ],
    },
  );
  if (newly)
    await recordEvent(deps, teamId, 'deliverability.paused', {
      metric: episode.metric,
      rate: episode.rate,
      limit: episode.limit,
      window_days: episode.window_days,
      dashboard_url: teamPageUrl(deps, teamId, 'deliverability'),
    });
};
