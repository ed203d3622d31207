import { escapeHtml } from '../escape-html.ts';
import { TOKEN_LIFETIME_SECONDS } from './one-time-tokens.ts';

/** The words and markup of a message the service sends people about their account. */
export interface SystemMessage {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** A length of time as a message says it: "10 minutes", "an hour", "7 days" (whole units). */
export const spokenDuration = (seconds: number): string => {
  const units: readonly [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, 'second'];
  const n = seconds / size;
  if (n === 1) return name === 'hour' ? 'an hour' : `a ${name}`;
  return `${n} ${name}s`;
};

/** The invitation to a team, with its one-time link. */
export const invitationMessage = (m: {
  inviter: string;
  teamName: string;
  role: string;
  link: string;
}): SystemMessage => {
  const lasts = spokenDuration(TOKEN_LIFETIME_SECONDS.invitation);
  return {
    subject: `You are invited to the team ${m.teamName.slice(0, 80)} on mailstack`,
    text: `${m.inviter} invited you to join the team "${m.teamName}" as ${m.role}.\n\nAccept (the link works once, for ${lasts}):\n${m.link}\n`,
    html: `<p>${escapeHtml(m.inviter)} invited you to join the team “${escapeHtml(m.teamName)}” as ${escapeHtml(m.role)}.</p><p><a href="${escapeHtml(m.link)}">Accept the invitation</a> (the link works once, for ${lasts}).</p>`,
  };
};

/** The sign-in link and the password link, sent together. */
export const signInMessage = (m: { link: string; reset: string }): SystemMessage => {
  const signIn = spokenDuration(TOKEN_LIFETIME_SECONDS.sign_in);
  const reset = spokenDuration(TOKEN_LIFETIME_SECONDS.password_reset);
  return {
    subject: 'Your mailstack sign-in link',
    text: `Sign in to the mailstack dashboard (the link works once, for ${signIn}):\n${m.link}\n\nTo choose a new password instead (works for ${reset}):\n${m.reset}\n\nIf you did not ask for this, ignore this message.`,
    html: `<p>Sign in to the mailstack dashboard (the link works once, for ${signIn}):</p><p><a href="${escapeHtml(m.link)}">Sign in</a></p><p>To choose a new password instead (works for ${reset}): <a href="${escapeHtml(m.reset)}">choose a new password</a></p><p>If you did not ask for this, ignore this message.</p>`,
  };
};
