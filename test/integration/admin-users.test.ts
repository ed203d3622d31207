import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { writeState } from '../../lib/local/state.ts';
import { listTeams } from '@mailstack/core/domain/teams/list-teams';
import { local, newTeam, testDeps } from '../support/local.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import { agent, agentMailbox, newDraft } from '../support/mailboxes.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * Runs `npm run admin -- <args>` against this test run's local host: the CLI finds a host through
 * the state file `npm start` writes in the working folder, so the test writes one (this process
 * stands in for the host's pid) in a folder of its own.
 */
const admin = async (folder: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> => {
  // Asynchronous, so this process's event loop (and its open connections to the host) keeps running meanwhile.
  try {
    const { stdout, stderr } = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [join(ROOT, 'bin/admin.ts'), ...args],
      {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json') },
        timeout: 60_000,
      },
    );
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: e.stdout ?? '', err: e.stderr ?? String(error) };
  }
};

/** Writes the state file `npm start` would write, pointing at this test run's host, into a folder of its own. */
const hostFolder = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'mailstack-admin-'));
  const l = local();
  writeState(
    {
      pid: process.pid,
      baseUrl: l.baseUrl,
      inboxUrl: l.inboxUrl,
      dashboardUrl: l.dashboardUrl,
      smtpPort: l.smtp.port,
      inboundPort: l.inbound.port,
      tableName: l.env.TABLE_NAME ?? '',
      cloud: true,
      env: l.env,
      queueUrls: l.queueUrls as never,
    },
    join(folder, '.data', 'local-state.json'),
  );
  return folder;
};

/** The rows of the key audit table on a team's API keys page, as [who, what, key] cells. */
const auditRows = async (teamId: string): Promise<string[][]> => {
  const owner = await signInOverHttp((await personIn(teamId, 'owner')).link);
  const page = await (await owner.get(`/t/${teamId}/api-keys`)).text();
  const audit = /<caption class="skip">Key audit<\/caption>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [...audit.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].slice(1).map((cell) => cell[1]!),
  );
};

describe('admin CLI: people', () => {
  it('users create makes a person and their team, or adds them to a team with a role, and prints a one-time sign-in link; users link prints a new one', async () => {
    const folder = hostFolder();
    try {
      const l = local();
      const email = `cli-${randomUUID().slice(0, 8)}@example.com`;
      const made = await admin(folder, 'users', 'create', '--email', email, '--name', 'Cli Person');
      expect(made.err).toBe('');
      expect(made.code).toBe(0);
      const teamId = /is owner of team ([0-9a-f-]{36}) "Cli Person's team"/.exec(made.out)?.[1];
      expect(teamId).toBeDefined();
      const link = /^SIGN_IN_LINK=(\S+)$/m.exec(made.out)![1]!;
      expect(link.startsWith(`${l.dashboardUrl}/sign-in/link/`)).toBe(true);
      const s = await signInOverHttp(link);
      expect(await (await s.get(`/t/${teamId}/`)).text()).toContain(`${email} · owner`);

      const other = await newTeam();
      const member = `cli-member-${randomUUID().slice(0, 8)}@example.com`;
      const joined = await admin(
        folder,
        'users',
        'create',
        '--email',
        member,
        '--team',
        other.team.id,
        '--role',
        'member',
      );
      expect(joined.code).toBe(0);
      expect(joined.out).toContain(`is member of team ${other.team.id}`);

      const again = await admin(folder, 'users', 'link', '--email', member);
      expect(again.code).toBe(0);
      const m = await signInOverHttp(/^SIGN_IN_LINK=(\S+)$/m.exec(again.out)![1]!);
      expect(await (await m.get(`/t/${other.team.id}/`)).text()).toContain(`${member} · member`);

      const unknown = await admin(folder, 'users', 'link', '--email', `nobody-${randomUUID().slice(0, 8)}@example.com`);
      expect(unknown.code).toBe(2);
      expect(unknown.err).toContain('no user with the address');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('key audit: keys made outside the dashboard', () => {
  it("keys create and keys revoke from the admin CLI each put a line in the team's audit list, naming the operator", async () => {
    // Prepare
    const folder = hostFolder();
    try {
      const { team } = await newTeam();
      // Act
      const made = await admin(folder, 'keys', 'create', '--team', team.id, '--name', 'ci-deploy', '--sending');
      expect(made.err).toBe('');
      expect(made.code).toBe(0);
      const keyId = /^# key (\S+) \(sending_access\)/m.exec(made.out)?.[1];
      expect(keyId).toBeDefined();
      const revoked = await admin(folder, 'keys', 'revoke', '--team', team.id, '--key', keyId!);
      expect(revoked.code).toBe(0);
      // It says when the revocation takes hold: at the key's next request (spec §5 rule 2).
      expect(revoked.out).toContain(
        'its next request answers 401 invalid_api_key (SMTP 535), in every running process',
      );
      const again = await admin(folder, 'keys', 'revoke', '--team', team.id, '--key', keyId!);
      expect(again.code).toBe(0);
      // A key restricted to a domain the team does not have is refused, and leaves no line.
      const bogus = await admin(
        folder,
        'keys',
        'create',
        '--team',
        team.id,
        '--sending',
        '--domain',
        '0190c2b0-0000-7000-8000-000000000000',
      );
      expect(bogus.code).toBe(2);
      expect(bogus.err).toContain('not_found');
      // Assess: newest first; revoking a revoked key again adds no line.
      const all = await auditRows(team.id);
      expect(all.filter((r) => r[0] === 'operator (admin CLI)')).toHaveLength(2);
      const rows = all.filter((r) => r[2]!.includes(keyId!));
      expect(rows).toEqual([
        ['operator (admin CLI)', 'revoked', `ci-deploy (${keyId})`],
        ['operator (admin CLI)', 'created', `ci-deploy (${keyId}, sending_access)`],
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);

  it("the default key npm start makes is in the default team's audit list, made by the operator through npm start", async () => {
    // Prepare: the host of this run started on an empty table, so it made the default team and key.
    const teams = (await listTeams(testDeps())).filter((t) => t.name === 'Default team');
    expect(teams).toHaveLength(1);
    // Act
    const rows = await auditRows(teams[0]!.id);
    // Assess
    expect(rows).toContainEqual([
      'operator (npm start)',
      'created',
      expect.stringMatching(/^Default key \(\S+, full_access\)$/),
    ]);
  });
});

describe('admin CLI: mailbox licenses and the sending switch', () => {
  it('mailboxes license grants seats, storage and an allowance and shows them; sending-off makes an agent send 503 until sending-on', async () => {
    // Prepare
    const folder = hostFolder();
    const t = await agentMailbox({ license: false });
    const draft = () => agent(t.sendKey, 'POST', '/drafts', newDraft({ subject: 'From the CLI test' }));
    try {
      const before = await draft();

      // Act
      const granted = await admin(
        folder,
        'mailboxes',
        'license',
        '--team',
        t.team.id,
        '--seats',
        '2',
        '--storage-mb',
        '5',
        '--recipients',
        '100',
      );
      const shown = await admin(folder, 'mailboxes', 'license', '--team', t.team.id);
      const bad = await admin(
        folder,
        'mailboxes',
        'license',
        '--team',
        t.team.id,
        '--seats',
        'two',
        '--storage-mb',
        '5',
        '--recipients',
        '1',
      );
      const saved = await draft();
      const off = await admin(folder, 'mailboxes', 'sending-off', '--team', t.team.id);
      const refused = await agent(t.sendKey, 'POST', '/send', { id: saved.body.id, expectedRevision: 0 });
      const on = await admin(folder, 'mailboxes', 'sending-on', '--team', t.team.id);
      const admitted = await agent(t.sendKey, 'POST', '/send', { id: saved.body.id, expectedRevision: 0 });

      // Assess
      expect(before).toMatchObject({ status: 409, body: { name: 'license_required' } });
      expect(granted).toMatchObject({ code: 0 });
      expect(granted.out).toContain('2 seat(s), 5242880 bytes of storage, 100 recipients per mailbox');
      expect(shown.out).toMatch(/active, 2 seat\(s\), \d+ of 5242880 bytes used/);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('--seats must be a whole number');
      expect(saved.status).toBe(200);
      expect(off.out).toContain(`mailbox sending off for team ${t.team.id}`);
      expect(refused).toMatchObject({ status: 503, body: { name: 'transport_unavailable' } });
      expect(on.code).toBe(0);
      expect(admitted).toMatchObject({ status: 202, body: { status: 'admitted' } });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("mailboxes key makes a key for the mailbox's owner, shown once, that the mailbox agent API takes", async () => {
    // Prepare
    const folder = hostFolder();
    const t = await agentMailbox();
    try {
      // Act
      const made = await admin(
        folder,
        'mailboxes',
        'key',
        '--team',
        t.team.id,
        '--mailbox',
        t.m.id,
        '--name',
        'ci-agent',
        '--sending',
      );
      const unknown = await admin(folder, 'mailboxes', 'key', '--team', t.team.id, '--mailbox', randomUUID());
      const secret = /^MAILBOX_KEY=(mmb_\S+)$/m.exec(made.out)?.[1];
      const listed = await agent(secret, 'GET', '/items?folder=inbox');

      // Assess
      expect(made.code).toBe(0);
      expect(made.out).toContain(`for ${t.m.address} (read, draft, send)`);
      expect(secret).toBeDefined();
      expect(listed).toMatchObject({ status: 200, body: { items: [], limited: false } });
      expect(unknown.code).toBe(2);
      expect(unknown.err).toContain('not_found');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
