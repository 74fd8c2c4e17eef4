// The REST API, built from lambdas/routes.ts: one ServiceFunction per route (entry
// lambdas/handlers/<file>.ts, handler <export>), the resource tree from the route paths (a trailing
// slash maps to the same resource, as API Gateway matches it), Lambda proxy integrations.
// Authentication is the application's (service-api-key / unstructured-api-key checked by the
// handler per AUTH_MODE), so methods carry no API Gateway authorizer.
//
// Limits (DESIGN §7): API Gateway accepts at most 10 MB per request and waits at most 29 s for an
// integration; a Lambda proxy payload is at most 6 MB, so a multipart upload arrives base64-encoded
// with roughly 4.5 MB of file. Large files go through presigned S3 uploads referenced by a job.
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { NestedStack, RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTES, type RouteDefinition } from '../lambdas/routes';
import { ServiceFunction, type FunctionDefaults } from './base-function';
import type { TableAccess } from './data';
import type { BucketAccess } from './storage';
import { pascal } from './names';

/**
 * Bodies API Gateway hands to Lambda base64-encoded, byte for byte: multipart uploads (partition,
 * future job uploads) and raw files. JSON stays text. The handlers decode either form.
 */
export const BINARY_MEDIA_TYPES = ['multipart/form-data', 'application/octet-stream'];

/**
 * What one function may touch; the stack turns it into bind* calls. Routes declare it below; job
 * tasks (lib/jobs.ts TASK_ACCESS) and event targets (lib/events.ts TARGET_ACCESS) use the same shape.
 */
export interface RouteAccess {
  table?: TableAccess;
  bucket?: BucketAccess;
  /** KMS encrypt/decrypt for connector secrets (KMS_KEY_ID); 'decrypt': open sealed values only. */
  secrets?: boolean | 'decrypt';
  /** Send to the work queues (their URL variables). */
  producer?: boolean;
  /** Start job executions and stop them (JOB_STATE_MACHINE_ARN). */
  jobs?: boolean;
  /** Put job events on the service bus (EVENT_BUS_NAME). */
  publisher?: boolean;
  /** Send e-mail through SES v2 (ses:SendEmail on the account's identities; SES_FROM_ADDRESS). */
  email?: boolean;
  /** Runs tenants' connectors: may assume the connector role (CONNECTOR_ROLE_ARN, lib/connector-role.ts). */
  connectors?: boolean;
}

/**
 * Least privilege per handler module (every route file must be listed; a test checks it). Public
 * routes (auth: false: health, OpenAPI, docs) touch nothing whatever their file. Every
 * authenticated route reads API keys from the table (lambdas/services/core.ts).
 */
export const HANDLER_ACCESS: Record<string, RouteAccess> = {
  meta: {},
  // Authentication only.
  partition: { table: 'read' },
  templates: { table: 'read' },
  // Connector records, their secrets sealed with KMS, connection checks queued.
  connectors: { table: 'readwrite', secrets: true, producer: true },
  // The job area: inputs uploaded to and results read from the bucket; the connector service
  // (secrets) resolves workflow sources and destinations; jobs are started and cancelled as
  // executions of the job state machine, announced (job.scheduled, job.stopped) on the service bus.
  jobs: { table: 'readwrite', bucket: 'readwrite', secrets: true, jobs: true, publisher: true },
  // Running a workflow lists its source (connector I/O).
  workflows: { table: 'readwrite', bucket: 'readwrite', secrets: true, jobs: true, publisher: true, connectors: true },
  // Notification channels: records in the table, webhook secrets sealed with KMS, verification
  // codes e-mailed through SES.
  channels: { table: 'readwrite', secrets: true, email: true },
  // Notification inboxes; KMS opens the sealed cursor-signing key (created on first use).
  notifications: { table: 'readwrite', secrets: true },
  // The MCP endpoint's tools call the services of the connector, job, workflow, partition and
  // notification routes: the union of their profiles (one POST route, so nothing narrows it).
  mcp: { table: 'readwrite', bucket: 'readwrite', secrets: true, producer: true, jobs: true, publisher: true, connectors: true },
};
/** For a handler module not listed above (the stack test fails until it is listed). */
const UNLISTED_DEFAULT: RouteAccess = { table: 'readwrite', secrets: true, producer: true };

/** Methods that only read (HTTP semantics): their routes get the read-only part of their file's access. */
export const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a read-only route of a handler file keeps beyond readOnlyAccess(), with the reason.
 * notifications: listing signs its cursors with a key created (sealed: kms:Encrypt) on first use.
 */
export const READ_ROUTE_EXTRAS: Record<string, RouteAccess> = {
  notifications: { secrets: true },
};

/**
 * The read-only part of an access profile: the table as declared (authentication may record key
 * use), the bucket read-only, secrets opened but never sealed; no queue sends, no executions started
 * or stopped, no events published, no mail.
 */
export function readOnlyAccess(a: RouteAccess): RouteAccess {
  return {
    ...(a.table ? { table: a.table } : {}),
    ...(a.bucket ? { bucket: 'read' as const } : {}),
    ...(a.secrets ? { secrets: 'decrypt' as const } : {}),
    ...(a.connectors ? { connectors: true } : {}),
  };
}

/** What a handler (file.export) may touch as `table` declares it; missing, an error naming `where` to declare it in. */
export function declaredAccess<A>(table: Record<string, A>, handler: { file: string; export: string }, where: string): A {
  const access = table[`${handler.file}.${handler.export}`];
  if (!access) throw new Error(`declare what ${handler.file}.${handler.export} may touch in ${where}`);
  return access;
}

/** Least privilege per route: its file's profile, narrowed to reading for GET routes. */
export function routeAccess(route: RouteDefinition): RouteAccess {
  if (route.auth === false) return {};
  const access = HANDLER_ACCESS[route.handler.file] ?? UNLISTED_DEFAULT;
  if (!READ_ONLY_METHODS.has(route.method)) return access;
  return { ...readOnlyAccess(access), ...READ_ROUTE_EXTRAS[route.handler.file] };
}

/** '/api/v1/sources/{source_id}/' → 'api/v1/sources/{source_id}' (API Gateway resource path). */
export function resourcePath(path: string): string {
  return path.split('/').filter(Boolean).join('/');
}

export interface RouteFunction {
  route: RouteDefinition;
  fn: ServiceFunction;
}

/** API Gateway waits at most 29 s for an integration: a route function never runs longer (DESIGN §7). */
export const API_GATEWAY_TIMEOUT_SECONDS = 29;

/**
 * Path prefix whose resources every route group shares ('api/v1'): created once, with the RestApi;
 * each group owns the subtrees below it (two stacks may not both create /api/v1/<x>).
 */
export const SHARED_PREFIX = 'api/v1';

/**
 * Nested stack of a route: by the first path segment below SHARED_PREFIX (or the first segment of
 * the path), merged where one concern spans segments. A new segment gets a stack of its own.
 */
const GROUP_OF_SEGMENT: Record<string, string> = {
  healthcheck: 'Meta', 'openapi.json': 'Meta', docs: 'Meta', general: 'Partition',
  destinations: 'Connectors', sources: 'Connectors', jobs: 'Jobs', uploads: 'Jobs',
  templates: 'Templates', notifications: 'Notifications', workflows: 'Workflows',
};

export function routeGroup(path: string): string {
  const p = resourcePath(path);
  const below = p === SHARED_PREFIX || p.startsWith(`${SHARED_PREFIX}/`) ? p.slice(SHARED_PREFIX.length + 1) : p;
  const segment = below.split('/')[0] ?? '';
  if (!segment) throw new Error(`route ${path}: a method on / or on /${SHARED_PREFIX} itself has no route group`);
  return GROUP_OF_SEGMENT[segment] ?? pascal(segment);
}

export interface ServiceApiProps {
  /** Default 'prod'. */
  stageName?: string;
  functionDefaults?: FunctionDefaults;
  /**
   * Stage-wide request rate limit (requests/s) and burst. Default 100/200: a ceiling on what an
   * unauthenticated flood can cost (every request reaches a Lambda before a key is checked), well
   * above the SDK's concurrent PDF page-range calls.
   */
  throttling?: { rateLimit: number; burstLimit: number };
  /** Default lambdas/routes.ts ROUTES. */
  routes?: RouteDefinition[];
  /** RestApi name (the ApiName dimension of its metrics). Default 'workflow-service'. */
  restApiName?: string;
  /** Reserved concurrency of the synchronous partition function(s) (route file 'partition'). */
  partitionConcurrency?: number;
  /** Default one month. */
  logRetention?: logs.RetentionDays;
}

/**
 * Stage access log fields (JSON, one line per request): who called (source IP, IAM caller, API
 * Gateway key id when one is used), what (method, resource path, status) and the request id that
 * the function's own log lines carry. The service's API keys are its own (a header the function
 * checks), so they are not in the access log: the function logs the account of the key.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: apigw.AccessLogField.contextRequestId(),
  ip: apigw.AccessLogField.contextIdentitySourceIp(),
  caller: apigw.AccessLogField.contextIdentityCaller(),
  user: apigw.AccessLogField.contextIdentityUser(),
  userAgent: apigw.AccessLogField.contextIdentityUserAgent(),
  requestTime: apigw.AccessLogField.contextRequestTime(),
  httpMethod: apigw.AccessLogField.contextHttpMethod(),
  resourcePath: apigw.AccessLogField.contextResourcePath(),
  status: apigw.AccessLogField.contextStatus(),
  responseLength: apigw.AccessLogField.contextResponseLength(),
  integrationLatency: apigw.AccessLogField.contextIntegrationLatency(),
  apiKeyId: apigw.AccessLogField.contextIdentityApiKeyId(),
  wafResponseCode: apigw.AccessLogField.contextWafResponseCode(),
};

/**
 * The API across nested stacks, so that routes can grow without the 500-resource limit of one
 * template: the RestApi, its gateway responses and the shared /api/v1 resources in the `Gateway`
 * nested stack; per route group (routeGroup) a nested stack `<Group>Routes` holding its functions,
 * its resources and methods (and the Lambda permissions, which a LambdaIntegration puts beside the
 * method); the deployment and the stage in the parent stack (this construct's scope), depending on
 * every group stack, since a deployment must follow its methods.
 */
export class ServiceApi extends Construct {
  readonly api: apigw.RestApi;
  readonly gatewayStack: NestedStack;
  readonly routeStacks = new Map<string, NestedStack>();
  readonly routeFunctions: RouteFunction[] = [];
  readonly deployment: apigw.Deployment;
  readonly stage: apigw.Stage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceApiProps = {}) {
    super(scope, id);
    this.gatewayStack = new NestedStack(this, 'Gateway', { description: 'REST API, gateway responses, shared resources' });
    this.api = new apigw.RestApi(this.gatewayStack, 'RestApi', {
      description: 'Workflow processing service (Unstructured-compatible API)',
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      restApiName: props.restApiName ?? 'workflow-service',
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      // Stage access logs need the account's API Gateway CloudWatch role (a per-region account
      // setting): created here and retained, since other APIs of the account rely on it too.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deploy: false,
    });
    // Unknown paths answer like the reference API (FastAPI: 404 {"detail":"Not Found"}) instead of
    // API Gateway's 403 "Missing Authentication Token".
    this.api.addGatewayResponse('NotFound', {
      type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '404',
      templates: { 'application/json': '{"detail":"Not Found"}' },
    });
    this.api.addGatewayResponse('TooLarge', {
      type: apigw.ResponseType.REQUEST_TOO_LARGE,
      statusCode: '413',
      templates: { 'application/json': '{"detail":"Request body is larger than the 10 MB API Gateway limit; upload large files to S3 with a presigned URL"}' },
    });
    const shared = this.api.root.resourceForPath(SHARED_PREFIX);
    // `/` is the web console's address: GET redirects to the stage's /console (a mock integration, no
    // function); other methods answer 404 as an unknown path does.
    const stageName = props.stageName ?? 'prod';
    this.api.root.addMethod(
      'GET',
      new apigw.MockIntegration({
        passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
        requestTemplates: { 'application/json': '{"statusCode": 302}' },
        integrationResponses: [{ statusCode: '302', responseParameters: { 'method.response.header.Location': `'/${stageName}/console'` } }],
      }),
      { methodResponses: [{ statusCode: '302', responseParameters: { 'method.response.header.Location': true } }] },
    );
    this.api.root.addMethod(
      'ANY',
      new apigw.MockIntegration({
        passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
        requestTemplates: { 'application/json': '{"statusCode": 404}' },
        integrationResponses: [{ statusCode: '404', responseTemplates: { 'application/json': '{"detail":"Not Found"}' } }],
      }),
      { methodResponses: [{ statusCode: '404' }] },
    );

    const routes = props.routes ?? ROUTES;
    const seen = new Set<string>();
    const groups = new Map<string, { stack: NestedStack; root: apigw.IResource; shared: apigw.IResource }>();
    const groupOf = (path: string) => {
      const name = routeGroup(path);
      let g = groups.get(name);
      if (!g) {
        const stack = new NestedStack(this, `${name}Routes`, { description: `API routes: ${name}` });
        const api = apigw.RestApi.fromRestApiAttributes(stack, 'RestApi', { restApiId: this.api.restApiId, rootResourceId: this.api.restApiRootResourceId });
        g = { stack, root: api.root, shared: apigw.Resource.fromResourceAttributes(stack, 'Shared', { restApi: api, resourceId: shared.resourceId, path: `/${SHARED_PREFIX}` }) };
        groups.set(name, g);
        this.routeStacks.set(name, stack);
      }
      return g;
    };
    const resourceIn = (path: string) => {
      const g = groupOf(path);
      const p = resourcePath(path);
      return p.startsWith(`${SHARED_PREFIX}/`) ? g.shared.resourceForPath(p.slice(SHARED_PREFIX.length + 1)) : g.root.resourceForPath(p);
    };
    for (const route of routes) {
      const key = `${route.method} ${resourcePath(route.path)}`;
      if (seen.has(key)) throw new Error(`two routes for ${key}`);
      seen.add(key);
      const fn = new ServiceFunction(groupOf(route.path).stack, `${pascal(route.operationId)}Function`, {
        file: route.handler.file,
        export: route.handler.export,
        description: `${route.method} ${route.path} (${route.operationId})`,
        memoryMb: route.memoryMb,
        // API Gateway answers 504 after 29 s: a function running longer only burns memory-seconds.
        timeoutSeconds: Math.min(route.timeoutSeconds ?? API_GATEWAY_TIMEOUT_SECONDS, API_GATEWAY_TIMEOUT_SECONDS),
        reservedConcurrency: route.handler.file === 'partition' ? props.partitionConcurrency : undefined,
        ...props.functionDefaults,
      });
      resourceIn(route.path).addMethod(route.method, new apigw.LambdaIntegration(fn, { proxy: true, allowTestInvoke: false }), {
        operationName: route.operationId,
      });
      this.routeFunctions.push({ route, fn });
    }
    this.addMethodNotAllowed(routes, resourceIn);

    // A deployment is a snapshot of the methods: it must follow every group stack, and it is
    // replaced (a new logical id) whenever the route table changes, which redeploys the stage.
    const api = apigw.RestApi.fromRestApiAttributes(this, 'Imported', { restApiId: this.api.restApiId, rootResourceId: this.api.restApiRootResourceId });
    this.deployment = new apigw.Deployment(this, 'Deployment', { api, description: 'Workflow service routes' });
    this.deployment.addToLogicalId(routes.map((r) => [r.method, resourcePath(r.path), r.handler.file, r.handler.export, r.operationId]));
    for (const g of groups.values()) this.deployment.node.addDependency(g.stack);
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigw.Stage(this, 'Stage', {
      accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogs),
      accessLogFormat: apigw.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      deployment: this.deployment,
      stageName: props.stageName ?? 'prod',
      tracingEnabled: true,
      throttlingRateLimit: props.throttling?.rateLimit ?? 100,
      throttlingBurstLimit: props.throttling?.burstLimit ?? 200,
    });
  }

  /**
   * Other methods on a known path answer 405 {"detail":"Method Not Allowed"} with an Allow header,
   * as the reference API and the local router do (API Gateway alone would say 403). A mock
   * integration on ANY (specific methods take precedence), so no Lambda runs for them.
   */
  private addMethodNotAllowed(routes: RouteDefinition[], resourceIn: (path: string) => apigw.IResource): void {
    const byPath = new Map<string, Set<string>>();
    for (const r of routes) {
      const path = resourcePath(r.path);
      byPath.set(path, (byPath.get(path) ?? new Set()).add(r.method));
    }
    for (const [path, methods] of byPath) {
      const resource = resourceIn(path);
      const allow = `'${[...methods].sort().join(', ')}'`;
      resource.addMethod(
        'ANY',
        new apigw.MockIntegration({
          passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
          requestTemplates: { 'application/json': '{"statusCode": 405}' },
          integrationResponses: [
            {
              statusCode: '405',
              responseParameters: { 'method.response.header.Allow': allow },
              responseTemplates: { 'application/json': '{"detail":"Method Not Allowed"}' },
            },
          ],
        }),
        { methodResponses: [{ statusCode: '405', responseParameters: { 'method.response.header.Allow': true } }] },
      );
    }
  }

  get url(): string {
    return this.stage.urlForPath('/');
  }
}
