// Runtime configuration, read once from the environment and validated at first use.
// On AWS the CDK sets these variables next to the grants (lib/); locally `npm start` and the
// test stack set them (local/stack.ts). Where a service is reached is never configured here:
// the AWS SDK reads AWS_ENDPOINT_URL_<SERVICE> itself.
import { z } from 'zod';

const STANDIN_SWITCH = /^(1|0|true|false|yes|no)$/i;

/**
 * Whether offline stand-ins may replace a hosted model named without credentials (`embed` for the
 * hashed embedder, `vlm` for local OCR instead of a vision model). The one place this is decided:
 * node validation at create and the node runner both ask here.
 */
export function offlineStandInsAllowed(kind: 'embed' | 'vlm', env: Record<string, string | undefined> = process.env): boolean {
  if (kind === 'embed' && env.EMBEDDING_FALLBACK?.trim().toLowerCase() === 'none') return false;
  return /^(1|true|yes)$/i.test(env.ALLOW_OFFLINE_STANDINS?.trim() ?? '');
}

export const CONFIG_SCHEMA = z.object({
  /** AWS region of the deployment (set by Lambda on AWS). */
  AWS_REGION: z.string().default('us-east-1'),
  /** The DynamoDB table (set by the CDK on AWS; the local stack creates it). */
  TABLE_NAME: z.string().min(1).default('wps'),
  /** The S3 bucket of inputs and outputs (set by the CDK on AWS). */
  BUCKET_NAME: z.string().min(1).default('wps-data'),
  /** `none`: private deployment, no key needed; `keyed`: keys stored hashed in the table. */
  AUTH_MODE: z.enum(['none', 'keyed']).default('none'),
  /** The account every call acts for in `none` mode. */
  DEFAULT_ACCOUNT_ID: z.string().min(1).default('default'),
  /** The user every call acts for in `none` mode. */
  DEFAULT_USER_ID: z.string().min(1).default('default'),
  /** Secrets at rest: a KMS key on AWS, or a local 32-byte key file. */
  KMS_KEY_ID: z.string().optional(),
  /** Locally: the 32-byte key file secrets are sealed with (AES-256-GCM), default `<DATA_DIR>/secrets.key`. */
  SECRETS_KEY_FILE: z.string().optional(),
  /** The connection-check queue (set by the CDK / the local stack). */
  CONNECTION_CHECK_QUEUE_URL: z.string().optional(),
  /** The job state machine (set by the CDK / the local stack). */
  JOB_STATE_MACHINE_ARN: z.string().optional(),
  /** The EventBridge bus job events are published on. */
  EVENT_BUS_NAME: z.string().default('default'),
  /**
   * Largest accepted request body in bytes (API Gateway itself caps at 10 MB on AWS). The local
   * router hands a binary body to the handler base64-encoded, as API Gateway does, and one string
   * holds at most ~512 M characters: 256 MiB (≈ 341 M characters encoded) leaves room and keeps a
   * request's copies (raw, encoded, decoded, parsed parts) near 1 GB. Larger inputs: presigned uploads.
   */
  MAX_BODY_BYTES: z.coerce.number().int().positive().max(380 * 1024 * 1024).default(256 * 1024 * 1024),
  /** JSON logs, one line per event; secrets and document text are never logged. */
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /**
   * Largest response body a handler builds (413 beyond, naming the limit). The default fits a Lambda
   * proxy response (6 MB, the body JSON-escaped inside it); the local stack sets 100 MB.
   */
  RESPONSE_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1000 * 1000),
  /** Job outputs above this size are served by a 307 to a presigned storage URL (a Lambda response carries ≤ 6 MB). */
  DOWNLOAD_INLINE_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1000 * 1000),
  /** `true` on AWS (CDK): outbound calls for tenants may not reach private networks (read by net/outbound.ts). */
  CONNECTORS_DENY_PRIVATE_NETWORKS: z.string().optional(),
  // Connector isolation (read by connectors/service-boundary.ts and connectors/types/local.ts).
  /** `true`: s3 connectors may use ambient_credentials (runtime credentials; on AWS the connector role). Off by default. */
  CONNECTORS_ALLOW_AMBIENT_CREDENTIALS: z.string().optional(),
  /** On AWS (CDK): the role connector calls with runtime credentials assume, and the ARNs its sessions deny. */
  CONNECTOR_ROLE_ARN: z.string().optional(),
  /** On AWS (CDK): the ARNs the connector role's sessions deny (bucket, table, KMS key). */
  CONNECTOR_DENIED_ARNS: z.string().optional(),
  /** Local data directory (secrets key, emulator data); connectors may only use its connector-files folder. */
  DATA_DIR: z.string().optional(),
  /** Where the web console's built files are (`npm start` builds them into <DATA_DIR>/console; on AWS they sit beside the handler). */
  CONSOLE_ASSETS_DIR: z.string().optional(),
  /** Root of the `local` connector type (default in keyed mode: <DATA_DIR>/connector-files). */
  LOCAL_CONNECTOR_ROOT: z.string().optional(),
  // Notification channels: delivery queue, SES sender, webhook TLS trust, timeout and back-off.
  /** The channel delivery queue (set by the CDK / the local stack). */
  NOTIFICATION_DELIVERY_QUEUE_URL: z.string().optional(),
  /** From address of channel e-mails (an SES-verified identity on AWS). */
  SES_FROM_ADDRESS: z.string().min(3).default('notifications@wps.local'),
  /** SES configuration set every channel e-mail is sent with (on AWS: the stack's, recording bounces and complaints). */
  SES_CONFIGURATION_SET: z.string().min(1).optional(),
  /** Extra PEM CA bundle webhook deliveries trust besides the system roots (self-signed test servers). */
  WEBHOOK_CA_FILE: z.string().optional(),
  /** Extra PEM CA bundle that store clients (search/vector destinations) trust besides the system roots. */
  CONNECTOR_CA_FILE: z.string().optional(),
  /** Port of Teradata's Query Service (REST API) on a Vantage host, used by the teradata connector (Teradata's default 1443). */
  TERADATA_QUERY_SERVICE_PORT: z.coerce.number().int().min(1).max(65535).default(1443),
  /** Deadline of one webhook delivery or channel test over the whole exchange (connect, send, answer); only the first KiB of the answer is read. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Sources and destinations one account may have together; beyond, a create is a 409 naming the limit (exact under concurrent creates; a delete gives the room back). */
  ACCOUNT_MAX_CONNECTORS: z.coerce.number().int().positive().default(100),
  /** Live workflows one account may have; beyond, a 409 naming the limit. */
  ACCOUNT_MAX_WORKFLOWS: z.coerce.number().int().positive().default(100),
  /** Presigned uploads outstanding (neither used nor expired) per account; beyond, a 409 naming the limit. */
  ACCOUNT_MAX_UPLOADS: z.coerce.number().int().positive().default(100),
  /** Connection checks one account may ask for in a UTC minute; beyond, a 429 with Retry-After. An ask while the connector's last check is still queued answers that check (not counted), so an account's queued checks never exceed its connectors. */
  ACCOUNT_CHECKS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Jobs one account may have scheduled or in progress (5 run at a time, the rest wait at the gate in launch order); beyond, creating a job or running a workflow is a 409 naming the limit, and a scheduled run is skipped with a log line. */
  ACCOUNT_MAX_ACTIVE_JOBS: z.coerce.number().int().positive().default(50),
  /** Verification e-mails (e-mail channel create, recipient change, a new code after an exhausted one) per UTC hour per account; beyond, a 429 with Retry-After and nothing is sent. */
  MAIL_VERIFICATIONS_PER_HOUR: z.coerce.number().int().positive().default(20),
  /** Verification e-mails per UTC hour to one address, whichever account asks; beyond, a 429 with Retry-After. */
  MAIL_VERIFICATIONS_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().positive().default(5),
  /** First retry delay of a failed delivery; doubled per attempt (capped at 900 s). */
  NOTIFICATION_RETRY_BASE_SECONDS: z.coerce.number().int().min(0).default(30),
  /** A workflow run whose source lists more documents than this fails (a source paging without end). */
  SOURCE_MAX_DOCUMENTS_PER_RUN: z.coerce.number().int().positive().default(1_000_000),
  /** Salesforce's OAuth login host (JWT bearer token endpoint and the JWT's aud); https://test.salesforce.com for sandboxes, a stand-in in tests. */
  SALESFORCE_LOGIN_URL: z.string().url().default('https://login.salesforce.com'),
  /**
   * `true`: a hosted model named without usable credentials runs on an offline stand-in (the hashed
   * embedder at the model's dimensions; local text layer and OCR for a VLM), noted in every element,
   * the job details and the job's notification. Off by default: such a node is a 422 at create.
   * Read per call by offlineStandInsAllowed() (tests flip it on a running stack).
   */
  ALLOW_OFFLINE_STANDINS: z.string().regex(STANDIN_SWITCH, 'true or false').optional(),
  /** Deprecated (before ALLOW_OFFLINE_STANDINS): `none` still refuses the embedding stand-in, whatever that setting says. */
  EMBEDDING_FALLBACK: z.string().optional(),
});

export type Config = z.infer<typeof CONFIG_SCHEMA>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    const parsed = CONFIG_SCHEMA.safeParse(process.env);
    if (!parsed.success) {
      throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests and the local runner change the environment between stacks; this forgets the cached copy. */
export function resetConfig(): void {
  cached = undefined;
}
