import { CfnOutput } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { AREAS, ROUTES, type Area, type RouteEntry } from '../../functions/routes.ts';

import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** The HTTP API, built from the route manifest: one Lambda per area, one route per entry. */
export class MailHttpApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', { description: 'Resend-compatible email API', createDefaultStage: true });
    new CfnOutput(scope, 'ApiUrl', { value: this.api.apiEndpoint, description: 'RESEND_BASE_URL for the SDKs' });
  }

  /** Sends every request no manifest route takes to `fn` (the `$default` route). */
  addDefaultRoute(fn: IFunction): void {
    new HttpRoute(this, 'default', { httpApi: this.api, routeKey: HttpRouteKey.DEFAULT, integration: new HttpLambdaIntegration('unmatched-integration', fn) });
  }

  /** Adds one route per manifest entry, each area's routes to that area's Lambda. */
  addRoutes(functionFor: (area: Area) => IFunction, routes: readonly RouteEntry[] = ROUTES): void {
    for (const area of AREAS) {
      const own = routes.filter((r) => r.area === area);
      if (own.length === 0) continue;
      const integration = new HttpLambdaIntegration(`${area}-integration`, functionFor(area));
      for (const route of own) {
        new HttpRoute(this, `${route.method} ${route.path}`, {
          httpApi: this.api,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
          integration,
        });
      }
    }
  }
}
