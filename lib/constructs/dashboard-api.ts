import { CfnOutput } from 'aws-cdk-lib';
import { HttpApi, HttpRoute, HttpRouteKey, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { acknowledge } from './acknowledge.ts';
import { ACCESS_LOG_FORMAT } from './http-api.ts';

/** Stage throttling of the dashboard: people at browsers, far below the API's rates. */
const DASHBOARD_THROTTLE = { rateLimit: 50, burstLimit: 100 };

/**
 * The dashboard's own HTTP API (its own origin, apart from the email API's): every path goes to
 * the dashboard function, which renders the pages and routes within itself. Access logs as the
 * API's.
 */
export class DashboardApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      description: 'mailstack dashboard (server-rendered web app)',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: DASHBOARD_THROTTLE,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });
    acknowledge(this, {
      'AwsSolutions-APIG4':
        'the dashboard authenticates people itself: sessions in the table behind HttpOnly cookies, CSRF tokens on every form',
    });
    new CfnOutput(scope, 'DashboardUrl', {
      value: this.api.apiEndpoint,
      description: 'The dashboard: sign in with a link from `npm run admin -- users link`',
    });
  }

  /** Serves every request with `fn`. */
  serveWith(fn: IFunction): void {
    new HttpRoute(this, 'default', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('dashboard-integration', fn),
    });
  }
}
