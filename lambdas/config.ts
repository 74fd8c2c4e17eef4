// Runtime configuration, read once from the environment and validated at first use.
// On AWS the CDK sets these variables next to the grants (lib/); locally `npm start` and the
// test stack set them (local/stack.ts). Where a service is reached is never configured here:
// the AWS SDK reads AWS_ENDPOINT_URL_<SERVICE> itself.
import { z } from 'zod';

const schema = z.object({
  AWS_REGION: z.string().default('us-east-1'),
  TABLE_NAME: z.string().min(1).default('wps'),
  BUCKET_NAME: z.string().min(1).default('wps-data'),
  /** `none`: private deployment, no key needed; `keyed`: keys stored hashed in the table. */
  AUTH_MODE: z.enum(['none', 'keyed']).default('none'),
  DEFAULT_ACCOUNT_ID: z.string().min(1).default('default'),
  DEFAULT_USER_ID: z.string().min(1).default('default'),
  /** Secrets at rest: a KMS key on AWS, or a local 32-byte key file. */
  KMS_KEY_ID: z.string().optional(),
  SECRETS_KEY_FILE: z.string().optional(),
  CONNECTION_CHECK_QUEUE_URL: z.string().optional(),
  JOB_STATE_MACHINE_ARN: z.string().optional(),
  EVENT_BUS_NAME: z.string().default('default'),
  /** Largest accepted request body in bytes (API Gateway itself caps at 10 MB on AWS). */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 51 * 1024 * 1024),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Job outputs above this size are served by a 307 to a presigned storage URL (a Lambda response carries ≤ 6 MB). */
  DOWNLOAD_INLINE_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1000 * 1000),
  /** `true` on AWS (CDK): connectors and webhooks may not reach private networks (read by connectors/net-check.ts). */
  CONNECTORS_DENY_PRIVATE_NETWORKS: z.string().optional(),
  // Notification channels: delivery queue, SES sender, webhook TLS trust, timeout and back-off.
  NOTIFICATION_DELIVERY_QUEUE_URL: z.string().optional(),
  /** From address of channel e-mails (an SES-verified identity on AWS). */
  SES_FROM_ADDRESS: z.string().min(3).default('notifications@wps.local'),
  /** Extra PEM CA bundle webhook deliveries trust besides the system roots (self-signed test servers). */
  WEBHOOK_CA_FILE: z.string().optional(),
  /** Extra PEM CA bundle that store clients (search/vector destinations) trust besides the system roots. */
  CONNECTOR_CA_FILE: z.string().optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** First retry delay of a failed delivery; doubled per attempt (capped at 900 s). */
  NOTIFICATION_RETRY_BASE_SECONDS: z.coerce.number().int().min(0).default(30),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
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
