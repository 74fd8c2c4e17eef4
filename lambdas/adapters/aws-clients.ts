// Module-level AWS SDK clients, created once per runtime and reused across invocations.
// Endpoints come from the SDK's own AWS_ENDPOINT_URL_<SERVICE> variables; S3 needs path-style
// addressing whenever a custom endpoint is set (emulators, LocalStack).
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { KMSClient } from '@aws-sdk/client-kms';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { format } from 'node:util';
import { config } from '../config';
import { log } from '../logger';

/**
 * The SDK clients' logger. After every command the SDK calls `logger.info?.(…)` with the command's
 * input and output, each first walked through its schema to mask sensitive fields, even when the
 * logger discards it (the default one does): for a BatchGetItem of 100 keys that walk costs more
 * than building the request (mark-read of 100 ids: p50 13.2 → 11.9 ms on the local stack). This
 * logger has no `info`, so the SDK skips the call and its arguments; its warnings (a socket pool
 * exhausted) reach the service's log; its errors are thrown to the caller, which maps or logs them
 * (a conditional write refused is not a fault).
 */
export const sdkLogger = {
  debug: () => undefined,
  warn: (...args: unknown[]) => log.warn('AWS SDK warning', { detail: format(...args) }),
  error: () => undefined,
} as unknown as NonNullable<DynamoDBClientConfig['logger']>;

let ddb: DynamoDBDocumentClient | undefined;

/** True when the SDK is pointed at a custom endpoint (emulator, LocalStack) for this service. */
export function hasEndpointOverride(service: string): boolean {
  return Boolean(process.env[`AWS_ENDPOINT_URL_${service}`] ?? process.env.AWS_ENDPOINT_URL);
}
let s3: S3Client | undefined;
let s3Presign: S3Client | undefined;
let sqs: SQSClient | undefined;
let kms: KMSClient | undefined;
let ses: SESv2Client | undefined;

/** Up to 128 requests in flight (the SDK's default is 50): a mark-read of 100 ids is one parallel wave. */
export function documentClient(): DynamoDBDocumentClient {
  ddb ??= DynamoDBDocumentClient.from(new DynamoDBClient({ logger: sdkLogger, region: config().AWS_REGION, requestHandler: { httpAgent: { keepAlive: true, maxSockets: 128 }, httpsAgent: { keepAlive: true, maxSockets: 128 } } }), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
  return ddb;
}

export function s3Client(): S3Client {
  s3 ??= new S3Client({
    logger: sdkLogger,
    region: config().AWS_REGION,
    forcePathStyle: hasEndpointOverride('S3'),
  });
  return s3;
}

/**
 * The client that signs URLs for others to use. With the SDK's default (checksums "when supported")
 * a presigned PutObject carries `x-amz-checksum-crc32` computed over an empty body at signing time,
 * which S3 rejects for the real, non-empty upload; a presigned GetObject carries checksum-mode.
 * "When required" leaves both out: the URL's user sends the bytes, and S3 checks them against the
 * signature as usual.
 */
export function s3PresignClient(): S3Client {
  s3Presign ??= new S3Client({
    logger: sdkLogger,
    region: config().AWS_REGION,
    forcePathStyle: hasEndpointOverride('S3'),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return s3Presign;
}

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient({ logger: sdkLogger, region: config().AWS_REGION, useQueueUrlAsEndpoint: !hasEndpointOverride('SQS') });
  return sqs;
}

export function kmsClient(): KMSClient {
  kms ??= new KMSClient({ logger: sdkLogger, region: config().AWS_REGION });
  return kms;
}

export function sesClient(): SESv2Client {
  ses ??= new SESv2Client({ logger: sdkLogger, region: config().AWS_REGION });
  return ses;
}

/** Forget the clients (tests that restart emulators on new ports). */
export function resetClients(): void {
  ddb?.destroy();
  s3?.destroy();
  s3Presign?.destroy();
  sqs?.destroy();
  kms?.destroy();
  ses?.destroy();
  ddb = s3 = s3Presign = sqs = kms = undefined;
  ses = undefined;
}
