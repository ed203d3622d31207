import type { Deps } from '../runtime/deps.ts';
import type { EmailItem } from '../domain/emails/email.ts';
import { keys } from './keys.ts';
import { getItem, putItem, queryAll, updateItem } from './ops.ts';

/** A tracked click as stored beside its email. */
export interface StoredClick {
  readonly id: string;
  readonly at: number;
  readonly link: string;
  readonly ipAddress: string;
  readonly userAgent: string;
  readonly timestamp: string;
  /** Still counted as a person's. */
  readonly human: boolean;
  /** Announced to webhooks as email.clicked. */
  readonly announced: boolean;
}

const clickOf = (i: Record<string, any>): StoredClick => ({
  id: i.id,
  at: i.at,
  link: i.link,
  ipAddress: i.ip_address,
  userAgent: i.user_agent,
  timestamp: i.timestamp,
  human: i.human === true,
  announced: i.announced === true,
});

export const trackingStore = {
  async email(deps: Deps, teamId: string, emailId: string): Promise<EmailItem | undefined> {
    return (await getItem(deps, keys.email.item(teamId, emailId))) as EmailItem | undefined;
  },

  /** Marks that a person opened the email; true only the first time. */
  async firstHumanOpen(deps: Deps, e: EmailItem): Promise<boolean> {
    return (
      (await updateItem(
        deps,
        keys.email.item(e.team_id, e.id),
        { set: { human_open: true } },
        { and: [{ exists: true }, { attr: 'human_open', absent: true }] },
      )) !== undefined
    );
  },

  /** Marks that a person clicked a link of the email; true only the first time (the metrics' unique clicks). */
  async firstHumanClick(deps: Deps, e: EmailItem): Promise<boolean> {
    return (
      (await updateItem(
        deps,
        keys.email.item(e.team_id, e.id),
        { set: { human_click: true } },
        { and: [{ exists: true }, { attr: 'human_click', absent: true }] },
      )) !== undefined
    );
  },

  /** Moves the email's engagement up (opened, then clicked; never back). */
  async engage(deps: Deps, e: EmailItem, level: 'opened' | 'clicked'): Promise<void> {
    await updateItem(
      deps,
      keys.email.item(e.team_id, e.id),
      { set: { engagement: level } },
      level === 'clicked' ? { exists: true } : { and: [{ exists: true }, { attr: 'engagement', absent: true }] },
    );
  },

  async addClick(deps: Deps, e: EmailItem, c: StoredClick): Promise<void> {
    await putItem(deps, {
      ...keys.email.click(e.team_id, e.id, c.at, c.id),
      type: 'email_click',
      id: c.id,
      at: c.at,
      link: c.link,
      ip_address: c.ipAddress,
      user_agent: c.userAgent,
      timestamp: c.timestamp,
      human: c.human,
      announced: c.announced,
    });
  },

  /** The email's clicks between two instants (epoch ms, inclusive). */
  async clicksBetween(deps: Deps, e: EmailItem, from: number, to: number): Promise<StoredClick[]> {
    return (
      await queryAll(deps, {
        pk: keys.email.item(e.team_id, e.id).pk,
        between: keys.email.clicksBetween(from, to),
        consistent: true,
      })
    ).map(clickOf);
  },

  /** Takes a click from the person's side; returns it as it was, or undefined when it already was a machine's. */
  async reclassify(deps: Deps, e: EmailItem, c: StoredClick): Promise<StoredClick | undefined> {
    const after = await updateItem(
      deps,
      keys.email.click(e.team_id, e.id, c.at, c.id),
      { set: { human: false } },
      { attr: 'human', eq: true },
    );
    return after ? { ...clickOf(after), human: true } : undefined;
  },

  /** Marks a click announced while it still counts as a person's; false when it was reclassified first. */
  async announce(deps: Deps, e: EmailItem, c: StoredClick): Promise<boolean> {
    return (
      (await updateItem(
        deps,
        keys.email.click(e.team_id, e.id, c.at, c.id),
        { set: { announced: true } },
        { attr: 'human', eq: true },
      )) !== undefined
    );
  },
};
