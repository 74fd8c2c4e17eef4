// The workflow service stack. It only wires the per-concern constructs together: data (table),
// storage (bucket), secrets (KMS key), queues (work queues + consumers), jobs (the job state machine
// and its task functions), events (the service bus and its rules' targets) and api (routes), and
// turns each function's declared access into bind* calls, which grant and set the variable
// together. Notification delivery (SQS, SES) is added as its own construct, wired the same way.
//
// Nested stacks (CloudFormation's 500-resource limit per template; test/infra/nested.test.ts keeps
// every template under half of it): functions and the API live in nested stacks by concern (the API
// gateway, one stack per route group, job tasks, background workers); this stack keeps the data
// (table, bucket, key: their logical ids never change, so an update never replaces them) and every
// resource with a fixed physical name (queues, state machine, bus, rules' queues), because
// CloudFormation creates a moved resource before it deletes the old one and a fixed name would clash.
// References only go from nested stacks to this one, or from this one to nested outputs for
// resources that nothing in the nested stacks refers back to (no cycle).
import { CfnOutput, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ServiceApi, routeAccess, type RouteAccess } from './api';
import type { ConfigEnvName, FunctionDefaults } from './base-function';
import { DataTable } from './data';
import { ServiceEvents, targetAccess } from './events';
import { JobOrchestration, TASK_ACCESS } from './jobs';
import { WorkQueues } from './queues';
import { SecretsKey } from './secrets';
import { DataBucket } from './storage';
import { ScheduledTasks, scheduleAccess } from './schedules';
import { bindEmailSender, DEFAULT_FROM_ADDRESS, NotificationIdentity, type EmailSending } from './notifications';
import { ConnectorRole } from './connector-role';
import { Operations } from './operations';
import { acknowledgeNagFindings } from './nag';
import { ApiRateLimits } from './waf';
import { consumerAccess } from './queues';
import { DEFAULT_PAGES_PER_RANGE, DEFAULT_PAGES_PER_RANGE_FAST } from '../lambdas/domain/job-pages';

export type AuthMode = 'none' | 'keyed';

export interface WorkflowServiceStackProps extends StackProps {
  /** 'keyed' (default): every non-public route needs an API key. 'none': private deployments only. */
  authMode?: AuthMode;
  /** Account and user that act in AUTH_MODE=none. */
  defaultAccountId?: string;
  defaultUserId?: string;
  /**
   * Refuse connector hosts and webhook targets that resolve to loopback/private/link-local addresses
   * (CONNECTORS_DENY_PRIVATE_NETWORKS). Default true: a tenant must not reach the service's own network.
   */
  denyPrivateNetworks?: boolean;
  /**
   * Let s3 connectors use ambient_credentials (CONNECTORS_ALLOW_AMBIENT_CREDENTIALS): they then run as
   * the connector role, never a function's own. Default false.
   */
  allowAmbientCredentials?: boolean;
  /**
   * Let a hosted embedding model or VLM named without credentials run on the offline stand-in, noted in
   * every element, the job details and the notification (ALLOW_OFFLINE_STANDINS). Default false: 422.
   */
  allowOfflineStandIns?: boolean;
  /** Days before objects under jobs/ expire. Default 30. */
  jobDataExpirationDays?: number;
  /** For the table, bucket and key. Default RETAIN; DESTROY suits throw-away (LocalStack) stacks. */
  removalPolicy?: RemovalPolicy;
  logRetention?: logs.RetentionDays;
  /** Lambda architecture. Default arm64; x86_64 for LocalStack on x86 hosts without arm64 emulation. */
  architecture?: lambda.Architecture;
  /** API Gateway stage. Default 'prod'. */
  stageName?: string;
  /** Prefix of physical names (queues, state machine, event bus). Default the stack name. */
  resourcePrefix?: string;
  /**
   * From address of notification e-mails. When it (or notificationFromDomain) is given, the stack
   * creates the SES identity and a configuration set recording bounces and complaints. Default
   * SES_FROM_ADDRESS's default (no identity created).
   */
  notificationFromAddress?: string;
  /**
   * Reserved concurrency of the heavy functions: a ceiling on what one tenant's burst can take and a
   * share nothing else can take from them (the API's other functions keep the account's rest).
   * Default partition 10 (the synchronous endpoint), fileProcessing 25 (the job file task).
   * `false`: none (accounts with a concurrency quota below ~150, such as new accounts' 10).
   */
  reservedConcurrency?: { partition: number; fileProcessing: number } | false;
  /**
   * Page fan-out of long PDFs and TIFFs in jobs (lambdas/domain/job-pages.ts): pages per range for OCR'd
   * strategies (hi_res, auto, ocr_only, vlm) and for fast; a PDF or TIFF with more pages is split. Default 40, 400.
   */
  pageRanges?: { pages: number; fastPages: number };
  /** E-mail address subscribed to the alarm topic (a confirmation mail is sent on deploy). */
  alarmEmail?: string;
  /**
   * Per-key request limit (WAF rate-based rules on the service-api-key and unstructured-api-key
   * headers, and on the source IP for requests without a key), requests per 5 minutes. Default 3000.
   */
  perKeyRateLimit?: number;
  /** Domain to verify as the SES identity (DKIM records in the outputs); from-address default notifications@<domain>. */
  notificationFromDomain?: string;
}

/** Reserved concurrency defaults (WorkflowServiceStackProps.reservedConcurrency). */
export const DEFAULT_RESERVED_CONCURRENCY = { partition: 10, fileProcessing: 25 };
/** The job task that partitions one file (lambdas/state-machines.ts). */
export const FILE_PROCESSING_TASK = 'job-process.processFile';
/** The job task that partitions one page range of a long PDF or TIFF (its own reserved concurrency, as heavy). */
export const PAGE_RANGE_TASK = 'job-pages.partitionPageRange';

export class WorkflowServiceStack extends Stack {
  readonly data: DataTable;
  readonly storage: DataBucket;
  readonly secrets: SecretsKey;
  readonly queues: WorkQueues;
  readonly jobs: JobOrchestration;
  readonly events: ServiceEvents;
  readonly api: ServiceApi;
  readonly schedules: ScheduledTasks;
  readonly connectorRole: ConnectorRole;
  readonly operations: Operations;
  readonly rateLimits: ApiRateLimits;
  /** The SES identity and configuration set, when a from-address or domain is configured. */
  readonly notifications?: NotificationIdentity;
  /** Nested stacks of functions (the API's are in api.gatewayStack and api.routeStacks). */
  readonly workers: NestedStack;
  readonly jobTasks: NestedStack;

  constructor(scope: Construct, id: string, props: WorkflowServiceStackProps = {}) {
    super(scope, id, props);
    const authMode = props.authMode ?? 'keyed';
    if (authMode !== 'none' && authMode !== 'keyed') throw new Error(`authMode must be 'none' or 'keyed', got ${String(authMode)}`);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const environment: Partial<Record<ConfigEnvName, string>> = {
      AUTH_MODE: authMode,
      DEFAULT_ACCOUNT_ID: props.defaultAccountId,
      DEFAULT_USER_ID: props.defaultUserId,
      CONNECTORS_DENY_PRIVATE_NETWORKS: String(props.denyPrivateNetworks ?? true),
      CONNECTORS_ALLOW_AMBIENT_CREDENTIALS: String(props.allowAmbientCredentials ?? false),
      ALLOW_OFFLINE_STANDINS: String(props.allowOfflineStandIns ?? false),
    };

    this.data = new DataTable(this, 'Data', { removalPolicy });
    this.storage = new DataBucket(this, 'Storage', { removalPolicy, jobDataExpirationDays: props.jobDataExpirationDays });
    this.secrets = new SecretsKey(this, 'Secrets', { removalPolicy });
    const functionDefaults: FunctionDefaults = { environment, logRetention: props.logRetention, architecture: props.architecture };
    const prefix = props.resourcePrefix ?? this.stackName;
    this.workers = new NestedStack(this, 'Workers', { description: 'Queue consumers, event rule targets, scheduled tasks' });
    this.jobTasks = new NestedStack(this, 'JobTasks', { description: 'Task functions of the job state machines' });
    this.queues = new WorkQueues(this, 'Queues', { prefix, functionDefaults, functionScope: this.workers });
    const concurrency = props.reservedConcurrency === false ? undefined : (props.reservedConcurrency ?? DEFAULT_RESERVED_CONCURRENCY);
    this.jobs = new JobOrchestration(this, 'Jobs', {
      prefix, functionDefaults, logRetention: props.logRetention, bucket: this.storage.bucket, functionScope: this.jobTasks,
      taskConcurrency: concurrency ? { [FILE_PROCESSING_TASK]: concurrency.fileProcessing, [PAGE_RANGE_TASK]: concurrency.fileProcessing } : undefined,
    });
    // the file-processing task decides the split (ProcessFile); ranges and merge only follow it
    const processFile = this.jobs.machine('job').tasks.find((t) => t.placeholder === 'ProcessFileFunctionArn');
    processFile?.fn.addEnvironment('PAGE_RANGE_PAGES', String(props.pageRanges?.pages ?? DEFAULT_PAGES_PER_RANGE));
    processFile?.fn.addEnvironment('PAGE_RANGE_PAGES_FAST', String(props.pageRanges?.fastPages ?? DEFAULT_PAGES_PER_RANGE_FAST));
    this.events = new ServiceEvents(this, 'Events', {
      prefix,
      functionDefaults,
      stateMachineArns: this.jobs.machines.map((m) => m.stateMachine.stateMachineArn),
      functionScope: this.workers,
    });
    this.api = new ServiceApi(this, 'Api', {
      stageName: props.stageName, functionDefaults, restApiName: `${prefix}-api`, partitionConcurrency: concurrency?.partition, logRetention: props.logRetention,
    });
    this.schedules = new ScheduledTasks(this, 'Schedules', { functionDefaults, functionScope: this.workers });

    if (props.notificationFromAddress || props.notificationFromDomain) {
      this.notifications = new NotificationIdentity(this, 'Notifications', {
        fromAddress: props.notificationFromAddress,
        fromDomain: props.notificationFromDomain,
        configurationSetName: `${prefix}-notifications`,
      });
    }
    const sending: EmailSending = this.notifications?.sending ?? { fromAddress: DEFAULT_FROM_ADDRESS };

    const connectorFunctions: lambda.Function[] = [];
    const bind = (fn: lambda.Function, access: RouteAccess) => {
      if (access.connectors) connectorFunctions.push(fn);
      if (access.table) this.data.bindTable(fn, access.table);
      if (access.bucket) this.storage.bindBucket(fn, access.bucket);
      if (access.secrets) this.secrets.bindSecretsKey(fn, access.secrets === 'decrypt' ? 'decrypt' : 'both');
      if (access.producer) this.queues.bindProducer(fn);
      if (access.jobs) this.jobs.bindJobs(fn);
      if (access.publisher) this.events.bindPublisher(fn);
      if (access.email) bindEmailSender(fn, sending);
    };
    for (const { route, fn } of this.api.routeFunctions) bind(fn, routeAccess(route));
    for (const fn of this.jobs.taskFunctions) bind(fn, TASK_ACCESS);
    for (const { definition, target } of this.events.rules) bind(target, targetAccess(definition.target));
    for (const { definition, fn } of this.schedules.tasks) bind(fn, scheduleAccess(definition));
    // Consumers per lib/queues.ts CONSUMER_ACCESS (connection checks, channel deliveries).
    for (const { definition, consumer } of this.queues.queues) bind(consumer, consumerAccess(definition));
    // Connector I/O with runtime credentials runs as this role, trusted by exactly those functions.
    this.connectorRole = new ConnectorRole(this, 'Connectors', {
      functions: connectorFunctions,
      bucketArn: this.storage.bucket.bucketArn,
      tableArn: this.data.table.tableArn,
      keyArn: this.secrets.key.keyArn,
      roleName: `${prefix}-connector-io`,
    });

    this.rateLimits = new ApiRateLimits(this, 'RateLimits', { stage: this.api.stage, perKeyLimit: props.perKeyRateLimit, name: `${prefix}-api` });
    this.operations = new Operations(this, 'Operations', {
      deadLetterQueues: [
        ...this.queues.queues.map((q) => ({ name: `${q.definition.name}-dlq`, queue: q.deadLetterQueue })),
        ...this.events.rules.map((r) => ({ name: `${r.definition.name}-dlq`, queue: r.deadLetterQueue })),
      ],
      stateMachines: this.jobs.machines.map((m) => ({ name: m.definition.name, stateMachine: m.stateMachine })),
      functions: [
        ...this.api.routeFunctions.map(({ route, fn }) => ({ label: route.operationId, fn })),
        ...this.jobs.machines.flatMap((m) => m.tasks.map((t) => ({ label: `${m.definition.name}.${t.placeholder.replace(/FunctionArn$/, '')}`, fn: t.fn }))),
        ...this.queues.queues.map((q) => ({ label: `${q.definition.name} consumer`, fn: q.consumer })),
        ...this.events.rules.map((r) => ({ label: `${r.definition.name} target`, fn: r.target })),
        ...this.schedules.tasks.map((t) => ({ label: `${t.definition.name} schedule`, fn: t.fn })),
      ],
      // literals: the metrics' dimensions are the names, not references to the stage
      api: { apiName: `${prefix}-api`, stageName: props.stageName ?? 'prod' },
      alarmEmail: props.alarmEmail,
      dashboardName: prefix,
    });
    acknowledgeNagFindings(this);
    new CfnOutput(this, 'AlarmTopicArn', { value: this.operations.alarmTopic.topicArn, description: 'Alarms of the service (subscribe to be told)' });
    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the API (append /healthcheck, /api/v1/..., /general/v0/general)' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'AuthMode', { value: authMode });
    new CfnOutput(this, 'StateMachineArn', { value: this.jobs.machine('job').stateMachine.stateMachineArn, description: 'The job state machine' });
    new CfnOutput(this, 'EventBusName', { value: this.events.bus.eventBusName, description: 'Bus of the job.* events (source wps.jobs)' });
  }
}
