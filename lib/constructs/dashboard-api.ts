import { CfnOutput } from 'aws-cdk-lib';
import { HttpApi, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * The dashboard's own HTTP API (its own origin, apart from the email API's): every path goes to
 * the dashboard function, which renders the pages and routes within itself.
 */
export class DashboardApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', { description: 'mailstack dashboard (server-rendered web app)', createDefaultStage: true });
    new CfnOutput(scope, 'DashboardUrl', { value: this.api.apiEndpoint, description: 'The dashboard: sign in with a link from `npm run admin -- users link`' });
  }

  /** Serves every request with `fn`. */
  serveWith(fn: IFunction): void {
    new HttpRoute(this, 'default', { httpApi: this.api, routeKey: HttpRouteKey.DEFAULT, integration: new HttpLambdaIntegration('dashboard-integration', fn) });
  }
}
