// cdk-nag (AwsSolutions pack) findings the design accepts, acknowledged in code with their reasons
// (test/infra/nag.test.ts runs the pack over the whole app). Acknowledged on the root stack, they
// apply to its nested stacks too. Each entry is a decision: change the design, not the reason.
import { Validations, type Stack } from 'aws-cdk-lib';

/** Finding id → why it stays. Ids as cdk-nag prints them ("Acknowledge with ..."). */
export const NAG_ACKNOWLEDGEMENTS: Record<string, string> = {
  'AwsSolutions::AwsSolutions-APIG4':
    "Authentication is the service's own: the service-api-key / unstructured-api-key header is checked by the function against the table (AUTH_MODE); health, OpenAPI and docs are public by design.",
  'AwsSolutions::AwsSolutions-COG4': 'No Cognito: API keys are the service’s own (see APIG4), as the Unstructured API it is compatible with.',
  'AwsSolutions::AwsSolutions-APIG2':
    'Requests are validated by the handlers (zod), which answer 422 with the reference API’s {"detail":[...]} body; an API Gateway validator would answer 400 in another format.',
  'AwsSolutions::AwsSolutions-APIG6':
    'No stage execution logging: it would log request and response bodies (documents, keys). JSON access logs (lib/api.ts ACCESS_LOG_FIELDS) and the functions’ structured logs cover operations.',
  'AwsSolutions::AwsSolutions-L1':
    'Node.js 22 is the runtime the bundles target (lib/base-function.ts FUNCTION_RUNTIME, esbuild target node22) and the tests run; a runtime upgrade is a deliberate change there.',
  'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
    'Log-writing permissions only (CreateLogStream, PutLogEvents), the CDK default of every function.',
  'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]':
    'The account-level API Gateway logging role (needed for access logs) with the managed policy AWS provides for exactly that.',
  'AwsSolutions::AwsSolutions-SQS3':
    'These queues ARE dead-letter queues (event rule targets’ and Lambda on-failure destinations): no queue behind them; alarms watch them (lib/operations.ts).',
  'AwsSolutions::AwsSolutions-SF1':
    'State machine logs at ERROR level on purpose: ALL would log every state transition of every file of every job (lib/jobs.ts logLevel).',
  'AwsSolutions::AwsSolutions-IAM5[Resource::*]':
    'Actions that take no resource ARN: X-Ray PutTraceSegments/PutTelemetryRecords and Step Functions log delivery.',
  'AwsSolutions::AwsSolutions-IAM5[Action::s3:List*]': 'bucket.grantRead/grantReadWrite on the service bucket only (CDK grant).',
  'AwsSolutions::AwsSolutions-IAM5[Action::s3:GetObject*]': 'bucket.grantRead/grantReadWrite on the service bucket only (CDK grant).',
  'AwsSolutions::AwsSolutions-IAM5[Action::s3:GetBucket*]': 'bucket.grantRead/grantReadWrite on the service bucket only (CDK grant).',
  'AwsSolutions::AwsSolutions-IAM5[Action::s3:DeleteObject*]': 'bucket.grantReadWrite on the service bucket only, for writing routes and job tasks (CDK grant).',
  'AwsSolutions::AwsSolutions-IAM5[Action::s3:Abort*]': 'bucket.grantReadWrite on the service bucket only (multipart uploads), for writing routes and job tasks.',
  'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]':
    'ses:SendEmail on any identity, but only as the configured from-address (ses:FromAddress condition, lib/notifications.ts).',
  'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:configuration-set/*]':
    'ses:SendEmail with a configuration set, only as the configured from-address (ses:FromAddress condition).',
};

/**
 * IAM5 resource wildcards whose finding ids carry references (parameters of the nested stacks, named
 * per stack), so they cannot be acknowledged by a fixed id: each kind (the id as nagReferenceKind
 * writes it) and why it stays. test/infra/nag.test.ts fails on any other kind and on a kind that no
 * longer occurs. Narrowed already: DynamoDB to the named indexes (no `index/*`), the bucket to jobs/
 * (no `bucket/*`), the state machine to its functions' unqualified ARNs (no `function:*`) and to
 * manifests (no jobs/* read).
 */
export const NAG_REFERENCE_WILDCARDS: Record<string, string> = {
  'AwsSolutions::AwsSolutions-IAM5[Resource::<ref>/jobs/*]':
    'Objects of the service bucket under jobs/ (DataBucket.bindBucket, per the route access profile): every key the service keeps is made at run time from a job, file or upload id under that prefix.',
  'AwsSolutions::AwsSolutions-IAM5[Resource::<ref>/jobs/*/manifest.jsonl]':
    "The job state machine's Distributed Map reads a job's manifest (ItemReader): one per job id, made at launch.",
  'AwsSolutions::AwsSolutions-IAM5[Resource::<ref>/jobs/map-results/*]': 'The Distributed Map ResultWriter: Step Functions names the result objects under that prefix.',
  'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<ref>:states:<ref>:<ref>:execution:{ref}:*]':
    'Status and cancel of job executions (DescribeExecution, StopExecution) by the job routes and the cleanup: an execution is named by its job id at launch.',
  'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<ref>:states:<ref>:<ref>:execution:<state machine>/*]':
    "The Distributed Map's child executions (DescribeExecution, StopExecution by the state machine itself): Step Functions names them.",
};

/** A finding id with its references generalized: the key of NAG_REFERENCE_WILDCARDS. */
export function nagReferenceKind(id: string): string {
  return id
    .replace(/<[^>]+>/g, '<ref>')
    .replace(/\{.*\}/, '{ref}')
    .replace(/:execution:[\w-]+\/\*\]$/, ':execution:<state machine>/*]');
}

export function acknowledgeNagFindings(stack: Stack): void {
  for (const [id, reason] of Object.entries(NAG_ACKNOWLEDGEMENTS)) Validations.of(stack).acknowledge({ id, reason });
}
