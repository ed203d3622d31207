import { MIN_PASSWORD_LENGTH } from '@mailstack/core/domain/people/passwords';
import { Hono, type Context } from 'hono';
import { getPath } from 'hono/utils/url';
import { html } from 'hono/html';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import { randomBytes } from 'node:crypto';
import type { Deps } from '@mailstack/core/runtime/deps';
import { isApiError } from '@mailstack/core/errors/api-error';
import { normalisePath } from '@mailstack/core/http/unmatched';
import { csrfMatches, loadSession, type Session } from '@mailstack/core/domain/people/session';
import { endSession } from '@mailstack/core/domain/people/end-session';
import { startSession } from '@mailstack/core/domain/people/start-session';
import { actorIn, switcherTeams, teamsOf, type Actor } from '@mailstack/core/domain/people/membership';
import { createTeamFor } from '@mailstack/core/domain/people/create-team-for';
import { emailSignInLink } from '@mailstack/core/domain/people/email-sign-in-link';
import { resetPassword } from '@mailstack/core/domain/people/reset-password';
import { signInWithLink } from '@mailstack/core/domain/people/sign-in-with-link';
import { signInWithPassword } from '@mailstack/core/domain/people/sign-in-with-password';
import { acceptInvitation, isInvitee } from '@mailstack/core/domain/people/accept-invitation';
import { unusedToken } from '@mailstack/core/domain/people/one-time-tokens';
import { peekInvitation } from '@mailstack/core/domain/people/invitation';

import { SCRIPT, STYLE } from './assets.ts';
import { csrfField, plainPage, type Html, type PageContext } from './view.ts';
import { registerTeamPages } from './pages/index.ts';
import { registerConsent } from './pages/consent.ts';
import { registerShared } from './pages/shared.ts';
import { mailboxAgentApi } from './mailbox-agent.ts';

/** The session cookie and the pre-session (double-submit) CSRF cookie of signed-out forms. */
const SESSION_COOKIE = 'ms_session';
const PRE_COOKIE = 'ms_pre';

export type DashboardEnv = {
  Variables: {
    deps: Deps;
    session: Session | undefined;
    sessionId: string | undefined;
    form: Record<string, string>;
    actor: Actor;
    ctx: PageContext;
  };
};
export type Ctx = Context<DashboardEnv>;

/** The security headers of every answer: CSP without inline script (fetch to its own origin only, for live progress), no framing, no sniffing. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; frame-src 'self'; base-uri 'none'";

/** Options of the dashboard app. */
export interface DashboardOptions {
  /** The dependencies, read per request (the Lambda builds them at cold start). */
  readonly deps: () => Deps;
}

const render = (c: Ctx, page: Html, status = 200) => c.html(page, status as 200);

/** Renders a refusal as a page with its status: the error's name and message (escaped). */
const errorPage = (c: Ctx, status: number, name: string, message: string) =>
  render(
    c,
    plainPage(
      status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : 'That did not work',
      html`<p class="error" role="alert"><strong>${name}</strong>: ${message}</p><p><a href="/">Back to the dashboard</a></p>`,
    ),
    status,
  );

/** Builds the dashboard: a server-rendered web app over the core's use cases. */
export const createDashboard = (options: DashboardOptions) => {
  // Runs of slashes read as one (`//api/mailbox-agent/drafts`, from a base URL with a trailing slash).
  const app = new Hono<DashboardEnv>({ getPath: (request) => normalisePath(getPath(request)) });
  const secure = () => options.deps().config.DASHBOARD_URL.startsWith('https:');
  const cookie = (c: Ctx, name: string, value: string, maxAge: number) =>
    setCookie(c, name, value, { httpOnly: true, sameSite: 'Lax', secure: secure(), path: '/', maxAge });

  app.use('*', async (c, next) => {
    c.set('deps', options.deps());
    await next();
    c.header('Content-Security-Policy', c.res.headers.get('Content-Security-Policy') ?? CSP);
    if (!c.res.headers.has('X-Frame-Options')) c.header('X-Frame-Options', 'DENY');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cache-Control', c.res.headers.get('Cache-Control') ?? 'no-store');
  });

  app.onError((error, c) => {
    if (isApiError(error)) {
      for (const [k, v] of Object.entries(error.headers)) c.header(k, v);
      return errorPage(c as Ctx, error.statusCode, error.name, error.message);
    }
    c.get('deps')?.logger.error('dashboard: unhandled error', { error: String((error as Error)?.stack ?? error) });
    return errorPage(c as Ctx, 500, 'internal_server_error', 'Something failed on our side; try again.');
  });
  app.notFound((c) => errorPage(c as Ctx, 404, 'not_found', 'There is no page at this address.'));

  app.get('/assets/style.css', (c) =>
    c.body(STYLE, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300' }),
  );
  app.get('/assets/app.js', (c) =>
    c.body(SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' }),
  );

  // The mailbox agent API: Bearer mailbox keys, JSON; no session or CSRF (answers before that middleware).
  app.route('/api/mailbox-agent', mailboxAgentApi() as unknown as Hono<DashboardEnv>);

  // Session and CSRF: every POST carries the session's token, or (signed out) the pre-session cookie's.
  app.use('*', async (c, next) => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = await loadSession(c.get('deps'), id);
    c.set('session', session);
    c.set('sessionId', session ? id : undefined);
    if (c.req.method === 'POST') {
      const form = Object.fromEntries(
        Object.entries(await c.req.parseBody()).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>;
      c.set('form', form);
      const pre = getCookie(c, PRE_COOKIE);
      const ok = session
        ? csrfMatches(session, form._csrf)
        : typeof form._csrf === 'string' && !!pre && form._csrf === pre && pre.length >= 20;
      if (!ok)
        return errorPage(
          c,
          403,
          'forbidden',
          "The form's security token is missing or does not match this session. Reload the page and submit the form again.",
        );
    }
    return next();
  });

  /**
   * The CSRF token of a form reachable signed out (sign-in, sign-in link, password, invitation):
   * the session's when someone is signed in, since that is the token a POST is then held to;
   * otherwise the pre-session cookie's (set when absent).
   */
  const preToken = (c: Ctx) => {
    const session = c.get('session');
    if (session) return session.csrf;
    let pre = getCookie(c, PRE_COOKIE);
    if (!pre || pre.length < 20) {
      pre = randomBytes(24).toString('base64url');
      cookie(c, PRE_COOKIE, pre, 3600);
    }
    return pre;
  };

  /** Signs the person in: a new session id every time (no fixation), the old session ended. */
  const signIn = async (c: Ctx, userId: string, to = '/') => {
    await endSession(c.get('deps'), c.get('sessionId'));
    const { id } = await startSession(c.get('deps'), userId);
    cookie(c, SESSION_COOKIE, id, 12 * 3600);
    deleteCookie(c, PRE_COOKIE, { path: '/' });
    return c.redirect(to, 303);
  };

  const signInForm = (c: Ctx, error?: string) => {
    const t = preToken(c);
    const next = localPath(c.req.query('next') ?? c.get('form')?.next);
    return plainPage(
      'Sign in to mailstack',
      html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${next?.startsWith('/oauth/consent/') ? html`<p>Sign in to choose what the application that sent you here may do.</p>` : ''}
<form method="post" action="/sign-in">${csrfField(t)}${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
<label>Email <input type="email" name="email" autocomplete="username" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button>Sign in</button></form>
<h2>Or get a link by email</h2>
<form method="post" action="/sign-in/email">${csrfField(t)}<label>Email <input type="email" name="email" required></label><button class="secondary">Email me a sign-in link</button></form>`,
      c.req.query('notice'),
    );
  };

  app.get('/sign-in', (c) => render(c, signInForm(c)));
  app.post('/sign-in', async (c) => {
    const f = c.get('form');
    const user = await signInWithPassword(c.get('deps'), {
      email: f.email ?? '',
      password: f.password ?? '',
      sourceIp: sourceIp(c),
    });
    if (!user) return render(c, signInForm(c, 'The email or password is wrong.'), 401);
    return signIn(c, user.id, localPath(f.next) ?? '/');
  });
  app.post('/sign-in/email', async (c) => {
    await emailSignInLink(c.get('deps'), c.get('form').email ?? '', sourceIp(c));
    return c.redirect('/sign-in?notice=link-sent', 303);
  });
  // The link shows a button: mail scanners that fetch links do not use it up.
  app.get('/sign-in/link/:token', (c) =>
    render(
      c,
      plainPage(
        'Sign in to mailstack',
        html`<p>Continue to sign in. The link works once.</p>
<form method="post" action="/sign-in/link/${c.req.param('token')}">${csrfField(preToken(c))}<button>Continue</button></form>`,
      ),
    ),
  );
  app.post('/sign-in/link/:token', async (c) => {
    const user = await signInWithLink(c.get('deps'), c.req.param('token'));
    if (!user)
      return errorPage(
        c,
        404,
        'not_found',
        'This sign-in link is unknown, used or expired. Ask for a new one on the sign-in page.',
      );
    return signIn(c, user.id);
  });
  app.post('/sign-out', async (c) => {
    await endSession(c.get('deps'), c.get('sessionId'));
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/sign-in?notice=signed-out', 303);
  });

  const passwordForm = (c: Ctx, error?: string) =>
    plainPage(
      'Choose a new password',
      html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/password/${c.req.param('token')}">${csrfField(preToken(c))}
<label>New password (at least ${MIN_PASSWORD_LENGTH} characters) <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></label><button>Save password</button></form>`,
    );
  app.get('/password/:token', async (c) =>
    (await unusedToken(c.get('deps'), c.req.param('token'), 'password_reset'))
      ? render(c, passwordForm(c))
      : errorPage(
          c,
          404,
          'not_found',
          'This password link is unknown, used or expired. Ask for a new one on the sign-in page.',
        ),
  );
  app.post('/password/:token', async (c) => {
    const user = await resetPassword(c.get('deps'), c.req.param('token'), c.get('form').password ?? '');
    if (!user)
      return errorPage(
        c,
        404,
        'not_found',
        'This password link is unknown, used or expired. Ask for a new one on the sign-in page.',
      );
    return signIn(c, user.id);
  });

  app.get('/invitations/:token', async (c) => {
    const peek = await peekInvitation(c.get('deps'), c.req.param('token'));
    if (!peek)
      return errorPage(
        c,
        404,
        'not_found',
        'This invitation is unknown, used, withdrawn or expired. Ask the team for a new one.',
      );
    const invited = html`<p>You are invited to the team <strong>${peek.teamName}</strong> as <strong>${peek.invitation.role}</strong> (invited by ${peek.invitation.invitedBy}).</p>`;
    // An existing account joins once signed in as itself: the link alone signs no one in.
    if (peek.hasAccount && !isInvitee(c.get('session')?.user, peek.invitation.email))
      return render(
        c,
        plainPage(
          `Join ${peek.teamName}`,
          html`${invited}
<p>The invitation is for the account <strong>${peek.invitation.email}</strong>. ${
            c.get('session') ? 'You are signed in as another person: sign out, then ' : ''
          }<a href="/sign-in?next=${encodeURIComponent(c.req.path)}">sign in as ${peek.invitation.email}</a> to join; this link stays valid.</p>`,
        ),
      );
    return render(
      c,
      plainPage(
        `Join ${peek.teamName}`,
        html`${invited}
<form method="post" action="/invitations/${c.req.param('token')}">${csrfField(preToken(c))}
<p>Account: <strong>${peek.invitation.email}</strong></p>
${
  peek.hasAccount
    ? ''
    : html`<label>Your name <input name="name" autocomplete="name"></label>
<label>Choose a password (at least ${MIN_PASSWORD_LENGTH} characters) <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></label>`
}
<button>${peek.hasAccount ? 'Join the team' : 'Create account and join'}</button></form>`,
      ),
    );
  });
  app.post('/invitations/:token', async (c) => {
    const f = c.get('form');
    const done = await acceptInvitation(
      c.get('deps'),
      c.req.param('token'),
      { name: f.name ?? '', password: f.password ?? '' },
      c.get('session')?.user,
    );
    if (done === 'sign_in_first') return c.redirect(`/sign-in?next=${encodeURIComponent(c.req.path)}`, 303);
    if (!done)
      return errorPage(
        c,
        404,
        'not_found',
        'This invitation is unknown, used, withdrawn or expired. Ask the team for a new one.',
      );
    return signIn(c, done.user.id, `/t/${done.teamId}/`);
  });

  // A shared email's read-only page: the link's token is the only credential.
  registerShared(app);

  // Everything below needs a signed-in person.
  // A page asked for while signed out is where sign-in returns to (the consent screen of an MCP client, say).
  app.use('*', async (c, next) => {
    if (!c.get('session'))
      return c.redirect(
        c.req.method === 'GET' && c.req.path !== '/' ? `/sign-in?next=${encodeURIComponent(c.req.path)}` : '/sign-in',
        303,
      );
    return next();
  });

  app.get('/', async (c) => {
    const s = c.get('session')!;
    const teams = await teamsOf(c.get('deps'), s.user.id);
    if (teams[0]) return c.redirect(`/t/${teams[0].teamId}/`, 303);
    return render(
      c,
      plainPage(
        'Create a team',
        html`<p>You are not in a team yet. Create one, or ask a team for an invitation.</p>
<form method="post" action="/teams">${csrfField(s.csrf)}<label>Team name <input name="name" required></label><button>Create team</button></form>`,
      ),
    );
  });
  registerConsent(app, CSP);
  app.get('/switch', (c) =>
    c.redirect(/^\/t\/[0-9a-f-]{36}\/$/.test(c.req.query('team') ?? '') ? c.req.query('team')! : '/', 303),
  );
  app.post('/teams', async (c) => {
    const team = await createTeamFor(c.get('deps'), c.get('session')!.user, c.get('form').name ?? '');
    return c.redirect(`/t/${team.id}/`, 303);
  });

  // A team's address without its trailing slash is its overview (the team's own check follows there).
  app.get('/t/:team{[0-9a-f-]{36}}', (c) => c.redirect(`/t/${c.req.param('team')}/`, 301));

  // A team's pages: the person must be a member (another team's URL answers 404).
  app.use('/t/:team/*', async (c, next) => {
    const deps = c.get('deps');
    const s = c.get('session')!;
    const teamId = c.req.param('team') ?? '';
    const actor = await actorIn(
      deps,
      s.user,
      /^[0-9a-f-]{36}$/.test(teamId) ? teamId : '00000000-0000-0000-0000-000000000000',
    );
    const teams = await switcherTeams(deps, actor);
    c.set('actor', actor);
    const path = c.req.path.split('/')[3] ?? '';
    c.set('ctx', { actor, csrf: s.csrf, teams, section: path });
    return next();
  });
  registerTeamPages(app);
  return app;
};

/** A path of this dashboard to return to after sign-in; anything else (another origin, `//host`) gives undefined. */
const localPath = (value: string | undefined): string | undefined =>
  value && /^\/(?![/\\])[A-Za-z0-9/_.~-]{0,300}$/.test(value) ? value : undefined;

/** The client address (API Gateway's source IP on AWS; the socket's locally). */
export const sourceIp = (c: { env: unknown; req: { header: (name: string) => string | undefined } }): string => {
  const env = c.env as any;
  return (
    env?.requestContext?.http?.sourceIp ??
    env?.incoming?.socket?.remoteAddress ??
    c.req.header('x-forwarded-for')?.split(',')[0]?.trim() ??
    'unknown'
  );
};
