import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CreateEmailIdentityCommand,
  GetEmailIdentityCommand,
  SendEmailCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps } from '@mailstack/core/runtime/deps';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { adoptDomain, createDomain } from '@mailstack/core/domain/domains/create-domain';
import { getDomain, verifyDomain } from '@mailstack/core/domain/domains/domain-verification';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { deleteDomain } from '@mailstack/core/domain/domains/delete-domain';
import { ensureTable } from '../../lib/local/dynamo-engine.ts';
import { local, newTeam, testDeps } from '../support/local.ts';
import { emailReaches } from '../support/wait.ts';

/** A client of the SES stand-in: the AWS account the local deployments share. */
const account = () =>
  new SESv2Client({
    endpoint: local().env.SES_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** An identity made in the account outside this deployment (verified at its first read, as the stand-in plays DNS). */
const outsideIdentity = async (name: string, tags: { Key: string; Value: string }[] = []) => {
  const ses = account();
  await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: name, Tags: tags }));
  expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: name }))).VerifiedForSendingStatus).toBe(true);
};

/** A raw send through the account, as any stack of it sends. */
const sendAs = (from: string) =>
  account().send(
    new SendEmailCommand({
      FromEmailAddress: from,
      Destination: { ToAddresses: ['delivered@resend.dev'] },
      Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 'x' } } } },
    }),
  );

/** A second deployment (staging) of the same AWS account: its own stack name and table, the same SES. */
const stagingStack = async () => {
  const tableName = `mailstack-staging-${randomUUID().slice(0, 8)}`;
  await ensureTable(local().env.DYNAMODB_ENDPOINT!, tableName);
  return createDeps(readConfig({ ...local().env, TABLE_NAME: tableName, STACK_NAME: 'MailstackStaging' }));
};

describe('SES identities this deployment did not create', () => {
  it('POST /domains answers 409 conflict saying to claim or adopt it, and never adds it verified', async () => {
    const { resend } = await newTeam({ plan: 'pro' });
    for (const [name, tags] of [
      [`ops-${randomUUID().slice(0, 8)}.example.com`, []],
      [`other-${randomUUID().slice(0, 8)}.example.com`, [{ Key: 'mailstack:stack', Value: 'SomeOtherStack' }]],
    ] as const) {
      await outsideIdentity(name, [...tags]);

      const out = await resend.domains.create({ name });

      expect(out.data).toBeNull();
      expect(out.error).toMatchObject({ statusCode: 409, name: 'conflict' });
      expect(out.error!.message).toContain('POST /domains/claim');
      expect(out.error!.message).toContain(`npm run admin -- domains adopt --team <team id> --name ${name}`);
      expect((await resend.domains.list()).data!.data).toEqual([]);
    }
  });

  it('the stand-in refuses SendEmail from an unknown or unverified identity with 400 MessageRejected, as SES does', async () => {
    const ses = account();
    const unverified = `unverified-${randomUUID().slice(0, 8)}.example.com`;
    await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: unverified }));
    for (const from of [`a@unknown-${randomUUID().slice(0, 8)}.example.com`, `Name <b@${unverified}>`]) {
      const refused = await sendAs(from).catch(
        (error: { name: string; $metadata: { httpStatusCode: number } }) => error,
      );
      expect(refused).toMatchObject({ name: 'MessageRejected', $metadata: { httpStatusCode: 400 } });
    }
  });

  it("deleting one team's adopted domain leaves the identity the other stack of the account created and sends from", async () => {
    // Staging creates and verifies its domain: the identity is staging's (tagged with its stack).
    const staging = await stagingStack();
    const stagingTeam = await createTeam(staging, { name: 'Staging team' });
    const name = `shared-${randomUUID().slice(0, 8)}.example.com`;
    const theirs = await createDomain(staging, stagingTeam, { name } as never);
    expect((await verifyDomain(staging, stagingTeam.id, theirs.id)).status).toBe('verified');

    // Production cannot add it without proof; its operator adopts it for a team, which sends from it.
    const production = await newTeam({ plan: 'pro' });
    expect((await production.resend.domains.create({ name })).error).toMatchObject({ statusCode: 409 });
    const adopted = await adoptDomain(testDeps(), (await getTeam(testDeps(), production.team.id))!, name, 'test');
    expect(adopted.status).toBe('verified');
    const sent = await production.resend.emails.send({
      from: `hello@${name}`,
      to: 'delivered@resend.dev',
      subject: 'adopted',
      text: 'x',
    });
    expect(sent.error).toBeNull();
    await emailReaches(production.resend, sent.data!.id, ['delivered']);

    // Production deletes its domain: staging's identity stays, and staging still sends from it.
    expect((await production.resend.domains.remove(adopted.id)).error).toBeNull();
    expect((await account().send(new GetEmailIdentityCommand({ EmailIdentity: name }))).Tags).toEqual([
      { Key: 'mailstack:stack', Value: 'MailstackStaging' },
    ]);
    expect((await sendAs(`hello@${name}`)).MessageId).toBeTruthy();
    expect((await getDomain(staging, stagingTeam.id, theirs.id)).status).toBe('verified');

    // Staging deletes its own: its identity goes.
    await deleteDomain(staging, stagingTeam.id, theirs.id);
    await expect(account().send(new GetEmailIdentityCommand({ EmailIdentity: name }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
  });
});
