// Per-key request limits for the API stage: a WAF WebACL with rate-based rules, on top of the
// stage-wide throttle. Why WAF and not API Gateway usage plans: usage plans meter API Gateway's own
// API keys (x-api-key, validated by the gateway), while this service's keys are its own (the
// service-api-key / unstructured-api-key header, looked up by the function in the table), so a
// usage plan could not tell two tenants apart. A rate-based rule aggregates on a header's value
// (custom aggregation key) instead: one rule per key header, and one on the source IP for requests
// that carry no key (a rule skips requests that lack its header).
import { Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * The headers a client sends its API key in (lambdas/http/handler.ts apiKeyOf): the two key headers,
 * and `Authorization` (`Bearer <key>`, what MCP clients send to /mcp), so an MCP client is limited per
 * key too, not per IP.
 */
export const API_KEY_HEADERS = ['service-api-key', 'unstructured-api-key', 'authorization'];
/** Requests per 5-minute window per key (and per IP without a key). */
export const DEFAULT_PER_KEY_RATE_LIMIT = 3000;

export interface ApiRateLimitsProps {
  stage: apigw.IStage;
  /** Requests per 5 minutes per key value (WAF's minimum is 10). Default 3000 (10/s on average). */
  perKeyLimit?: number;
  /** WebACL name (and metric prefix). */
  name: string;
}

export class ApiRateLimits extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiRateLimitsProps) {
    super(scope, id);
    const limit = props.perKeyLimit ?? DEFAULT_PER_KEY_RATE_LIMIT;
    if (!Number.isInteger(limit) || limit < 10) throw new Error(`perKeyRateLimit must be an integer >= 10 (WAF's minimum), got ${limit}`);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
    const rules: wafv2.CfnWebACL.RuleProperty[] = API_KEY_HEADERS.map((header, i) => ({
      name: `PerKey-${header}`,
      priority: i,
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooManyRequests' } } },
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: 300,
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: header, textTransformations: [{ priority: 0, type: 'NONE' }] } }],
        },
      },
      visibilityConfig: visibility(`${props.name}-per-key-${i}`),
    }));
    rules.push({
      name: 'PerIpWithoutKey',
      priority: API_KEY_HEADERS.length,
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooManyRequests' } } },
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: 300,
          aggregateKeyType: 'IP',
          scopeDownStatement: {
            andStatement: {
              statements: API_KEY_HEADERS.map((header) => ({
                notStatement: { statement: { sizeConstraintStatement: { fieldToMatch: { singleHeader: { Name: header } }, comparisonOperator: 'GT', size: 0, textTransformations: [{ priority: 0, type: 'NONE' }] } } },
              })),
            },
          },
        },
      },
      visibilityConfig: visibility(`${props.name}-per-ip`),
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: props.name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        TooManyRequests: { contentType: 'APPLICATION_JSON', content: '{"detail":"Too many requests for this API key; retry later"}' },
      },
      rules,
      visibilityConfig: visibility(props.name),
    });
    const stack = Stack.of(this);
    const association = new wafv2.CfnWebACLAssociation(this, 'Association', {
      webAclArn: this.webAcl.attrArn,
      resourceArn: stack.formatArn({ service: 'apigateway', account: '', resource: '/restapis', resourceName: `${props.stage.restApi.restApiId}/stages/${props.stage.stageName}` }),
    });
    association.node.addDependency(props.stage); // the stage name is a literal: no implicit dependency
  }
}
