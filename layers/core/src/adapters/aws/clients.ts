import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../runtime/config.ts';
import { countDbCapacity, countDbCommand, countDbItems, isDbCommand, type AdapterCounters } from './counters.ts';

/** Fixed credentials for the local engines, which accept any. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const common = (config: Config, endpoint: string | undefined) =>
  endpoint === undefined
    ? { region: config.AWS_REGION }
    : { region: config.AWS_REGION, endpoint, credentials: LOCAL_CREDENTIALS };

/**
 * How long an SES call may take: a connection made within 2 s (past it nothing was sent: retried
 * as transient) and an answer within 10 s (past it the answer is lost: handled as ambiguous),
 * well inside the send worker's timeout. Without them a hung call would hold the worker to its timeout.
 */
const SES_TIMEOUTS = { connectionTimeout: 2_000, requestTimeout: 10_000, throwOnRequestTimeout: true };

/** Attempts the DynamoDB client makes at a request (the SDK's standard retries: throttling and transient errors). */
export const DYNAMODB_MAX_ATTEMPTS = 5;

/** The one factory for every AWS SDK client, built from validated configuration. */
export const createClients = (config: Config, counters: AdapterCounters) => {
  const dynamo = new DynamoDBClient({
    ...common(config, config.DYNAMODB_ENDPOINT),
    maxAttempts: DYNAMODB_MAX_ATTEMPTS,
  });
  const db = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName);
      countDbCommand(counters, name, args.input);
      // Every read and write reports the capacity it consumed (indexes included) for the counters.
      const input = args.input as Record<string, unknown>;
      const asked =
        isDbCommand(name) && input.ReturnConsumedCapacity === undefined
          ? { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } }
          : args;
      const sent = counters.ddbSpans && Date.now();
      const out = await next(asked);
      if (sent) counters.ddbSpans?.push([sent, Date.now()]);
      countDbItems(counters, out.output);
      countDbCapacity(counters, name, asked.input, out.output);
      return out;
    },
    { step: 'initialize', name: 'countCalls' },
  );
  /** One SES client per region, made on first use with `settings`. */
  const sesPerRegion = (settings: { maxAttempts?: number; requestHandler?: typeof SES_TIMEOUTS }) => {
    const byRegion = new Map<string, SESv2Client>();
    return (region: string): SESv2Client => {
      let client = byRegion.get(region);
      if (!client)
        byRegion.set(
          region,
          (client = new SESv2Client({ ...common(config, config.SES_ENDPOINT), region, ...settings })),
        );
      return client;
    };
  };
  return {
    dynamo,
    db,
    sqs: new SQSClient(common(config, config.SQS_ENDPOINT)),
    // One attempt: a throttled or failed send is retried by the send line, never outside its pacing.
    ses: sesPerRegion({ maxAttempts: 1, requestHandler: SES_TIMEOUTS }),
    // Identity calls (create, read, delete a sending domain) keep the SDK's retries: a connection
    // reset or a throttle there is worth another try, and nothing paces them.
    sesIdentities: sesPerRegion({ requestHandler: SES_TIMEOUTS }),
    scheduler: new SchedulerClient({ region: config.AWS_REGION }),
    // Path-style addressing locally: the embedded S3 server answers on 127.0.0.1, not bucket subdomains.
    s3: new S3Client({
      ...common(config, config.S3_ENDPOINT),
      ...(config.S3_ENDPOINT ? { forcePathStyle: true } : {}),
    }),
  };
};
