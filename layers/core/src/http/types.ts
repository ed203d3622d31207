import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** The API Gateway HTTP API (payload v2) event every route handler receives, on AWS and locally. */
export type ApiEvent = APIGatewayProxyEventV2;
/** The structured result every route handler returns. */
export type ApiResult = APIGatewayProxyStructuredResultV2;
/** The Lambda context (the local host builds an equivalent). */
export type ApiContext = Context;
/** A Lambda-style handler of API events. */
export type ApiHandler = (event: ApiEvent, context: ApiContext) => Promise<ApiResult>;
