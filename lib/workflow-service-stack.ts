// The workflow service stack. It only wires the per-concern constructs together: data (table),
// storage (bucket), secrets (KMS key), queues (work queues + consumers) and api (routes), and turns
// each function's declared access into bind* calls, which grant and set the variable together.
// Jobs (Step Functions from statemachines/job.asl.json) and notifications (EventBridge, SQS, SES)
// are added as their own constructs (lib/jobs.ts, lib/notifications.ts) wired the same way.
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ServiceApi, routeAccess } from './api';
import type { ConfigEnvName, FunctionDefaults } from './base-function';
import { DataTable } from './data';
import { WorkQueues } from './queues';
import { SecretsKey } from './secrets';
import { DataBucket } from './storage';

export type AuthMode = 'none' | 'keyed';

export interface WorkflowServiceStackProps extends StackProps {
  /** 'keyed' (default): every non-public route needs an API key. 'none': private deployments only. */
  authMode?: AuthMode;
  /** Account and user that act in AUTH_MODE=none. */
  defaultAccountId?: string;
  defaultUserId?: string;
  /** Days before objects under jobs/ expire. Default 30. */
  jobDataExpirationDays?: number;
  /** For the table, bucket and key. Default RETAIN; DESTROY suits throw-away (LocalStack) stacks. */
  removalPolicy?: RemovalPolicy;
  logRetention?: logs.RetentionDays;
  /** Lambda architecture. Default arm64; x86_64 for LocalStack on x86 hosts without arm64 emulation. */
  architecture?: lambda.Architecture;
  /** API Gateway stage. Default 'prod'. */
  stageName?: string;
  /** Physical queue name prefix. Default the stack name. */
  resourcePrefix?: string;
}

export class WorkflowServiceStack extends Stack {
  readonly data: DataTable;
  readonly storage: DataBucket;
  readonly secrets: SecretsKey;
  readonly queues: WorkQueues;
  readonly api: ServiceApi;

  constructor(scope: Construct, id: string, props: WorkflowServiceStackProps = {}) {
    super(scope, id, props);
    const authMode = props.authMode ?? 'keyed';
    if (authMode !== 'none' && authMode !== 'keyed') throw new Error(`authMode must be 'none' or 'keyed', got ${String(authMode)}`);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const environment: Partial<Record<ConfigEnvName, string>> = {
      AUTH_MODE: authMode,
      DEFAULT_ACCOUNT_ID: props.defaultAccountId,
      DEFAULT_USER_ID: props.defaultUserId,
    };

    this.data = new DataTable(this, 'Data', { removalPolicy });
    this.storage = new DataBucket(this, 'Storage', { removalPolicy, jobDataExpirationDays: props.jobDataExpirationDays });
    this.secrets = new SecretsKey(this, 'Secrets', { removalPolicy });
    const functionDefaults: FunctionDefaults = { environment, logRetention: props.logRetention, architecture: props.architecture };
    this.queues = new WorkQueues(this, 'Queues', { prefix: props.resourcePrefix ?? this.stackName, functionDefaults });
    this.api = new ServiceApi(this, 'Api', { stageName: props.stageName, functionDefaults });

    for (const { route, fn } of this.api.routeFunctions) {
      const access = routeAccess(route);
      if (access.table) this.data.bindTable(fn, access.table);
      if (access.bucket) this.storage.bindBucket(fn, access.bucket);
      if (access.secrets) this.secrets.bindSecretsKey(fn);
      if (access.producer) this.queues.bindProducer(fn);
    }
    // Consumers run connector checks: connector records and their secrets, nothing else.
    for (const consumer of this.queues.consumers) {
      this.data.bindTable(consumer, 'readwrite');
      this.secrets.bindSecretsKey(consumer);
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the API (append /healthcheck, /api/v1/..., /general/v0/general)' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'AuthMode', { value: authMode });
  }
}
