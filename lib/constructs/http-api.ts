import { CfnOutput, NestedStack } from 'aws-cdk-lib';
import {
  type CfnStage,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  LogGroupLogDestination,
  type HttpStage,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { acknowledge } from './acknowledge.ts';
import { AREAS, ROUTES, routeKey, type Area, type RouteEntry } from '../../functions/routes.ts';

import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** One JSON line per request: request id (the correlation id the functions log), route, status, latency. */
export const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    status: '$context.status',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationLatencyMs: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    userAgent: '$context.identity.userAgent',
  }),
);

/** A throttle of API Gateway: steady requests per second and the burst (the token bucket's size). */
interface Throttle {
  readonly ratePerSecond: number;
  readonly burst: number;
}

/**
 * The classes of traffic that have throttles of their own, each by the areas of the route manifest
 * it takes: API Gateway gives each of their routes these limits in place of the stage's, so the
 * opens and clicks of a large broadcast, a crawler on the hosted pages, an MCP client or a run of
 * OAuth registrations cannot take the capacity the sends and the REST API need. Every other route
 * has the stage's throttle (mailstack:apiThrottleRatePerSecond, mailstack:apiThrottleBurst), and
 * the service's own per-key, per-team and per-person windows apply behind both (spec §8).
 */
export const ROUTE_THROTTLES: Readonly<Record<string, Throttle & { readonly areas: readonly Area[] }>> = {
  /** Open pixels and click redirects: they arrive in waves as a broadcast is delivered and read. */
  tracking: { areas: ['tracking'], ratePerSecond: 500, burst: 1000 },
  /** The hosted preference and unsubscribe pages (one-click unsubscribes included). */
  pages: { areas: ['preferences'], ratePerSecond: 50, burst: 100 },
  /** The hosted MCP server and the mailboxes' MCP endpoints. */
  mcp: { areas: ['mcp'], ratePerSecond: 50, burst: 100 },
  /** OAuth discovery, client registration, authorization and tokens of the MCP server. */
  oauth: { areas: ['oauth'], ratePerSecond: 10, burst: 20 },
};

/** The throttle of a route's area, when its class has one of its own. */
const throttleOf = (area: Area): Throttle | undefined =>
  Object.values(ROUTE_THROTTLES).find((c) => c.areas.includes(area));

/** Props of the HTTP API. */
export interface MailHttpApiProps {
  /** Stage throttling across all callers (per-key limits are the service's own). */
  readonly throttle: { readonly ratePerSecond: number; readonly burst: number };
  /** Serve the API and its public links on this domain (point a DNS CNAME at the ApiDomainTarget output). */
  readonly customDomain?: { readonly name: string; readonly certificateArn: string } | undefined;
}

/** The HTTP API, built from the route manifest: one Lambda per area, one route per entry. */
export class MailHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** One JSON line per request: request id (the correlation id the functions log), route, status, latency. */
  readonly accessLogs: LogGroup;
  /** The base URL users and links see: the custom domain when there is one. */
  readonly publicUrl: string;
  /**
   * The manifest's routes, their integrations and invoke permissions, in a nested stack of their
   * own: one resource per route would otherwise take a third of the stack's 500 CloudFormation
   * resources, and every endpoint added would bring the stack nearer the limit.
   */
  routeStack?: NestedStack;

  constructor(scope: Construct, id: string, props: MailHttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', { description: 'Resend-compatible email API', createDefaultStage: false });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    const domain = props.customDomain
      ? new DomainName(this, 'Domain', {
          domainName: props.customDomain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        })
      : undefined;
    this.publicUrl = props.customDomain ? `https://${props.customDomain.name}` : this.api.apiEndpoint;
    if (domain)
      new CfnOutput(scope, 'ApiDomainTarget', {
        value: domain.regionalDomainName,
        description: `DNS: CNAME ${props.customDomain!.name} to this name`,
      });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
      throttle: { rateLimit: props.throttle.ratePerSecond, burstLimit: props.throttle.burst },
      accessLogSettings: { destination: new LogGroupLogDestination(this.accessLogs), format: ACCESS_LOG_FORMAT },
    });
    acknowledge(this, {
      'AwsSolutions-APIG4':
        'the service authenticates each request itself: Resend-style API keys and signed link tokens (the unmatched route answers 404 through the error catalog)',
    });
    new CfnOutput(scope, 'ApiUrl', { value: this.publicUrl, description: 'RESEND_BASE_URL for the SDKs' });
  }

  /** Sends every request no manifest route takes to `fn` (the `$default` route). */
  addDefaultRoute(fn: IFunction): void {
    new HttpRoute(this, 'default', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('unmatched-integration', fn),
    });
  }

  /** Adds one route per manifest entry, each area's routes to that area's Lambda. */
  addRoutes(functionFor: (area: Area) => IFunction, routes: readonly RouteEntry[] = ROUTES): void {
    this.routeStack ??= new NestedStack(this, 'Routes', {
      description: 'The routes of the Resend-compatible email API, one per route manifest entry',
    });
    for (const area of AREAS) {
      const own = routes.filter((r) => r.area === area);
      if (own.length === 0) continue;
      // One invoke permission per area's function for the whole API, not one per route: the
      // routes would otherwise cost a permission each and push the stack past CloudFormation's
      // 500 resources. The function answers only its own routes (the manifest's dispatch).
      const integration = new HttpLambdaIntegration(`${area}-integration`, functionFor(area), {
        scopePermissionToRoute: false,
      });
      for (const route of own) {
        new HttpRoute(this.routeStack, `${route.method} ${route.path}`, {
          httpApi: this.api,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
          integration,
        });
      }
    }
    // Route-level throttles, one entry per manifest route of a class with its own (ROUTE_THROTTLES).
    // A stage's route settings may name only routes that exist: the stage waits for the routes.
    const settings = Object.fromEntries(
      routes.flatMap((route) => {
        const throttle = throttleOf(route.area);
        return throttle
          ? [[routeKey(route), { ThrottlingRateLimit: throttle.ratePerSecond, ThrottlingBurstLimit: throttle.burst }]]
          : [];
      }),
    );
    if (Object.keys(settings).length > 0) {
      (this.stage.node.defaultChild as CfnStage).routeSettings = settings;
      this.stage.node.addDependency(this.routeStack);
    }
  }
}
