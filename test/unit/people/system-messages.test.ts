import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from '@mailstack/core/domain/people/one-time-tokens';
import { invitationMessage, signInMessage, spokenDuration } from '@mailstack/core/domain/people/system-messages';

describe('messages about accounts', () => {
  it('says a length of time in whole units, as the tokens last', () => {
    expect(spokenDuration(10 * 60)).toBe('10 minutes');
    expect(spokenDuration(3600)).toBe('an hour');
    expect(spokenDuration(86_400)).toBe('a day');
    expect(spokenDuration(7 * 86_400)).toBe('7 days');
    expect(spokenDuration(90)).toBe('90 seconds');
  });

  it('tells an invitee how long the link lasts, from the token lifetime itself', () => {
    const m = invitationMessage({
      inviter: 'a@x.test',
      teamName: 'T',
      role: 'member',
      link: 'https://d/invitations/t',
    });
    expect(m.text).toContain(`for ${spokenDuration(TOKEN_LIFETIME_SECONDS.invitation)}`);
    expect(m.html).toContain(`for ${spokenDuration(TOKEN_LIFETIME_SECONDS.invitation)}`);
  });

  it('escapes what people wrote (a team name, an inviter) in the HTML part', () => {
    const m = invitationMessage({
      inviter: '<b>a@x.test</b>',
      teamName: '"><script>alert(1)</script>',
      role: 'member',
      link: 'https://d/invitations/t',
    });
    expect(m.html).not.toContain('<script>');
    expect(m.html).not.toContain('<b>');
    expect(m.html).toContain('&lt;script&gt;');
  });

  it('gives the sign-in and password links with their own lifetimes', () => {
    const m = signInMessage({ link: 'https://d/sign-in/a', reset: 'https://d/password/b' });
    expect(m.text).toContain(`once, for ${spokenDuration(TOKEN_LIFETIME_SECONDS.sign_in)}`);
    expect(m.text).toContain(`works for ${spokenDuration(TOKEN_LIFETIME_SECONDS.password_reset)}`);
    expect(m.html).toContain('href="https://d/password/b"');
  });
});
