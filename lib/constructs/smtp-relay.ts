import type { ContentBucket } from './content-bucket.ts';
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { FlowLogDestination, Peer, Port, SecurityGroup, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  ContainerInsights,
  ContainerImage,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
  Protocol as EcsProtocol,
  Secret as EcsSecret,
} from 'aws-cdk-lib/aws-ecs';
import { NetworkLoadBalancer, Protocol } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ROOT } from './service-function.ts';
import { acknowledge, nagArnOf } from './acknowledge.ts';

/** The port clients connect to (spec §5: STARTTLS on 2587). */
const SMTP_PORT = 2587;
/** The container's health endpoint port (GET /health). */
const SMTP_HEALTH_PORT = 8025;
/** The CloudWatch namespace the relay reports its open sessions under. */
const SMTP_METRICS_NAMESPACE = 'Mailstack/SmtpRelay';

/** The size of one relay task (Fargate CPU units, 1024 a vCPU, and MiB); the cost model reads it. */
const RELAY_TASK = { cpu: 256, memoryMiB: 512 } as const;

/** Props of the SMTP relay. */
export interface SmtpRelayProps {
  /** The service table (keys, teams, emails, idempotency records). */
  readonly table: ITable;
  /** The content store: the accept path puts large bodies and attachments there. */
  readonly content: ContentBucket;
  /** Queues the accept path writes to, each with the variable that carries its URL. */
  readonly queues: readonly { readonly queue: IQueue; readonly env: string }[];
  /** Settings shared with the functions (cloud mode, regions, rate limits). */
  readonly environment: Record<string, string>;
  /**
   * Name of the Secrets Manager secret holding the TLS certificate chain and key as JSON
   * `{"certificate": "<PEM>", "key": "<PEM>"}`.
   */
  readonly tlsSecretName: string;
  /** The name the relay greets with: the DNS name users point at the load balancer. @default - the load balancer's DNS name */
  readonly hostname?: string;
  /** Tasks that always run. @default - 2 */
  readonly desiredCount?: number;
  /** Upper bound of the auto-scaling. @default - 10 */
  readonly maxCount?: number;
  /** Open sessions per task that auto-scaling keeps to. @default - 200 */
  readonly sessionsPerTask?: number;
}

/**
 * The SMTP relay: an ECS Fargate service behind a network load balancer (TCP 2587), built from
 * functions/smtp/Dockerfile as an image asset. The TLS certificate and key come from Secrets
 * Manager; the load balancer keeps client addresses (per-address session and failed-login limits)
 * and checks each task's health endpoint; the service scales on open sessions per task.
 */
export class SmtpRelay extends Construct {
  /** The DNS name to point `smtp.<your domain>` at (a CNAME). */
  readonly dnsName: string;
  readonly service: FargateService;

  constructor(scope: Construct, id: string, props: SmtpRelayProps) {
    super(scope, id);
    const desiredCount = props.desiredCount ?? 2;
    const maxCount = props.maxCount ?? 10;
    if (maxCount < desiredCount)
      throw new Error(`smtp relay maxCount (${maxCount}) must be at least desiredCount (${desiredCount})`);

    // Public subnets only: tasks reach DynamoDB, SQS and ECR directly, without NAT gateways.
    const vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC }],
    });
    // Flow logs are kept a month, as the relay's own logs (the default log group keeps them two years).
    vpc.addFlowLog('FlowLog', {
      destination: FlowLogDestination.toCloudWatchLogs(
        new LogGroup(this, 'FlowLogs', { retention: RetentionDays.ONE_MONTH }),
      ),
    });
    const cluster = new Cluster(this, 'Cluster', { vpc, containerInsightsV2: ContainerInsights.ENABLED });
    const tls = Secret.fromSecretNameV2(this, 'TlsSecret', props.tlsSecretName);
    const nlb = new NetworkLoadBalancer(this, 'Nlb', { vpc, internetFacing: true, crossZoneEnabled: true });
    this.dnsName = nlb.loadBalancerDnsName;
    const metricsService = `${Stack.of(this).stackName}-smtp`;

    // The smallest Fargate size (0.25 vCPU, 0.5 GB, ARM64): a task runs all day, mail or not, and
    // the relay holds its sessions in that (auto-scaling adds tasks on open sessions).
    const task = new FargateTaskDefinition(this, 'Task', {
      cpu: RELAY_TASK.cpu,
      memoryLimitMiB: RELAY_TASK.memoryMiB,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    task.addContainer('relay', {
      image: ContainerImage.fromAsset(ROOT, {
        file: 'functions/smtp/Dockerfile',
        platform: Platform.LINUX_ARM64,
        // The build needs the manifests, the core and functions/: nothing else is staged.
        exclude: [
          'node_modules',
          '**/node_modules',
          'cdk.out',
          '.data',
          'dist',
          '.git',
          'test',
          'scripts',
          'bin',
          'lib',
          '*.md',
        ],
      }),
      logging: LogDrivers.awsLogs({
        streamPrefix: 'smtp',
        logGroup: new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH }),
      }),
      environment: {
        ...props.environment,
        TABLE_NAME: props.table.tableName,
        CONTENT_BUCKET: props.content.bucket.bucketName,
        ...Object.fromEntries(props.queues.map((q) => [q.env, q.queue.queueUrl])),
        SMTP_PORT: String(SMTP_PORT),
        SMTP_HEALTH_PORT: String(SMTP_HEALTH_PORT),
        SMTP_LISTEN_ADDRESS: '0.0.0.0',
        SMTP_HOSTNAME: props.hostname ?? nlb.loadBalancerDnsName,
        SMTP_METRICS_NAMESPACE,
        SMTP_METRICS_SERVICE: metricsService,
      },
      secrets: {
        SMTP_TLS_CERT: EcsSecret.fromSecretsManager(tls, 'certificate'),
        SMTP_TLS_KEY: EcsSecret.fromSecretsManager(tls, 'key'),
      },
      portMappings: [
        { containerPort: SMTP_PORT, protocol: EcsProtocol.TCP },
        { containerPort: SMTP_HEALTH_PORT, protocol: EcsProtocol.TCP },
      ],
      healthCheck: {
        command: [
          'CMD',
          'node',
          '-e',
          `fetch('http://127.0.0.1:${SMTP_HEALTH_PORT}/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`,
        ],
        interval: Duration.seconds(15),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(20),
      },
      // Open sessions get this long to finish after SIGTERM.
      stopTimeout: Duration.seconds(120),
    });

    // Least privilege: the accept path reads and writes the table, puts large content and queues sends; nothing else.
    props.table.grantReadWriteData(task.taskRole);
    for (const { queue } of props.queues) queue.grantSendMessages(task.taskRole);
    props.content.grant(task.taskRole, ['s3:PutObject']);
    task.taskRole.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['cloudwatch:PutMetricData'],
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': SMTP_METRICS_NAMESPACE } },
      }),
    );

    acknowledge(task, {
      'AwsSolutions-ECS2':
        'the environment holds only non-secret settings (table, queues, rates); the TLS key and certificate come from Secrets Manager',
      [`AwsSolutions-IAM5[Resource::${nagArnOf(props.table)}/index/*]`]:
        "the accept path queries the table's own global secondary indexes, whatever their names",
      'AwsSolutions-IAM5[Resource::*]':
        'cloudwatch:PutMetricData (limited to the relay namespace by condition) and ecr:GetAuthorizationToken accept no resource but *',
    });
    acknowledge(nlb, {
      'AwsSolutions-ELB2':
        'NLB access logs cover only TLS listeners and need a bucket; the relay logs every session and its outcome itself',
    });
    const securityGroup = new SecurityGroup(this, 'TaskSecurity', {
      vpc,
      description: 'SMTP relay tasks: SMTP from anywhere (client addresses are preserved), health checks from the VPC',
    });
    securityGroup.addIngressRule(Peer.anyIpv4(), Port.tcp(SMTP_PORT), 'SMTP submission with STARTTLS');
    acknowledge(securityGroup, {
      'AwsSolutions-EC23':
        'a public SMTP submission port: clients connect from anywhere and authenticate with API keys after STARTTLS',
    });
    securityGroup.addIngressRule(
      Peer.ipv4(vpc.vpcCidrBlock),
      Port.tcp(SMTP_HEALTH_PORT),
      'load balancer health checks',
    );

    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition: task,
      desiredCount,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      securityGroups: [securityGroup],
      minHealthyPercent: 100,
      circuitBreaker: { rollback: true },
    });

    const listener = nlb.addListener('Smtp', { port: SMTP_PORT, protocol: Protocol.TCP });
    listener.addTargets('Relay', {
      port: SMTP_PORT,
      protocol: Protocol.TCP,
      targets: [this.service.loadBalancerTarget({ containerName: 'relay', containerPort: SMTP_PORT })],
      preserveClientIp: true,
      deregistrationDelay: Duration.seconds(120),
      healthCheck: {
        protocol: Protocol.HTTP,
        port: String(SMTP_HEALTH_PORT),
        path: '/health',
        interval: Duration.seconds(10),
        healthyThresholdCount: 2,
        unhealthyThresholdCount: 2,
      },
    });

    const scaling = this.service.autoScaleTaskCount({ minCapacity: desiredCount, maxCapacity: maxCount });
    scaling.scaleToTrackCustomMetric('Sessions', {
      metric: new Metric({
        namespace: SMTP_METRICS_NAMESPACE,
        metricName: 'ActiveConnections',
        dimensionsMap: { Service: metricsService },
        statistic: 'Average',
        period: Duration.minutes(1),
      }),
      targetValue: props.sessionsPerTask ?? 200,
      scaleInCooldown: Duration.minutes(5),
      scaleOutCooldown: Duration.minutes(1),
    });

    // At the stack's scope, so the output is named SmtpHost as docs/aws.md says (beside ApiUrl).
    new CfnOutput(Stack.of(this), 'SmtpHost', {
      value: nlb.loadBalancerDnsName,
      description: 'Point smtp.<your domain> at this name (CNAME); clients use port 2587 with STARTTLS.',
    });
  }
}
