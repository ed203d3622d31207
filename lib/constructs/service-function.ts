import { Duration } from 'aws-cdk-lib';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { acknowledge, nagArnOf } from './acknowledge.ts';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the CDK app runs from it; entries and the lock file are relative to it). */
export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** Memory of every service function unless it says otherwise (MiB); the cost model reads it. */
const FUNCTION_MEMORY_MB = 1024;

/**
 * The functions' log level: INFO keeps one line per step of an email (accepted, handed to the
 * provider, each provider event) with its ids, a few hundred bytes an email (`npm run cost`
 * measures them at this level).
 */
export const FUNCTION_LOG_LEVEL = ApplicationLogLevel.INFO;

/** Props of a service function. */
export interface ServiceFunctionProps {
  /** Entry file, relative to functions/ (without extension), e.g. `domains/index`. */
  readonly entry: string;
  /** Environment shared by every function of the stack. */
  readonly environment: Record<string, string>;
  /** @default - 30 seconds */
  readonly timeout?: Duration;
  /** @default - 1024 MiB */
  readonly memorySize?: number;
  /** X-Ray active tracing (each traced invocation is billed). @default - false */
  readonly tracing?: boolean;
}

/**
 * A Lambda function of the service: Node 22 on ARM64, ESM, bundled locally with esbuild (no
 * Docker), an explicit log group. The core package is bundled in and tree-shaken per function;
 * the AWS SDK v3 comes from the runtime.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, {
      entry: resolve(ROOT, 'functions', `${props.entry}.ts`),
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: resolve(ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? FUNCTION_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      environment: { NODE_OPTIONS: '--enable-source-maps', LOG_LEVEL: FUNCTION_LOG_LEVEL, ...props.environment },
      logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH }),
      // JSON logs, and Lambda's own lines only from WARN: no START, END and REPORT lines for each
      // invocation (about as many bytes as the function's own lines; duration and memory are metrics).
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: FUNCTION_LOG_LEVEL,
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        metafile: true,
        forceDockerBundling: false,
        mainFields: ['module', 'main'],
        externalModules: ['@aws-sdk/*'],
        // ESM bundles still meet CommonJS dependencies that call require().
        banner:
          "import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);",
      },
    });
    acknowledge(this, {
      'AwsSolutions-L1':
        'nodejs22.x is the runtime DESIGN.md §5 pins and the bundled-asset tests model; it moves with the esbuild target',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        "the managed basic role grants only writes to this function's CloudWatch log streams",
      'AwsSolutions-IAM5[Resource::*]': 'X-Ray PutTraceSegments and PutTelemetryRecords accept no resource but *',
    });
  }

  /**
   * Grants exactly these IAM actions on the table (`dynamodb:Query` on its indexes too) and
   * injects its name, in one call.
   */
  bindTable(table: ITable, actions: readonly string[]): void {
    this.addEnvironment('TABLE_NAME', table.tableName);
    const unique = [...new Set(actions)].sort();
    if (unique.length === 0) return;
    this.addToRolePolicy(new PolicyStatement({ actions: unique, resources: [table.tableArn] }));
    if (unique.includes('dynamodb:Query')) {
      this.addToRolePolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/*`] }),
      );
      acknowledge(this, {
        [`AwsSolutions-IAM5[Resource::${nagArnOf(table)}/index/*]`]:
          "queries read the table's own global secondary indexes, whatever their names",
      });
    }
  }

  /** Grants sending to a queue and injects its URL under `envName`, in one call. */
  bindQueue(queue: IQueue, envName: string): void {
    // SendMessageBatch is authorized as sqs:SendMessage; the code never reads a queue's attributes or URL.
    this.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
    this.addEnvironment(envName, queue.queueUrl);
  }
}
