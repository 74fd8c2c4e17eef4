// The object store under a Delta table: S3 through the AWS SDK with the config's key, secret and
// region (as delta-rs is given them by the platform's connector), over the outbound policy's agents.
// The endpoint is S3's own, or AWS_ENDPOINT_URL_S3 when the deployment sets one (the local
// emulator); a tenant cannot name an endpoint. The service's own bucket is refused, in table_uri and
// on every request as sent (../service-boundary.ts).
import {
  DeleteObjectCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { describeError } from '../definition';
import { bucketProblem, refuseServiceBucketRequests } from '../service-boundary';
import { guardedS3Agents, policyReason } from '../../net/outbound';
import { redact } from '../agents';

export interface DeltaTarget {
  table_uri: string;
  aws_region: string;
  aws_access_key_id: string;
  aws_secret_access_key: string;
}

export interface TableLocation {
  bucket: string;
  /** The table's folder, '' or ending with '/'. */
  prefix: string;
}

/** Thrown when a put-if-absent finds the key taken (a concurrent commit of the same version). */
export class CommitConflict extends Error {}

export function tableLocation(uri: string): TableLocation {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!m || !m[1]) throw new Error(`table_uri ${JSON.stringify(uri)} is not of the form s3://bucket/folder/`);
  let prefix = (m[2] ?? '').replace(/^\/+/, '');
  if (prefix.split('/').some((seg) => seg === '.' || seg === '..')) throw new Error(`table_uri ${JSON.stringify(uri)} may not contain '.' or '..' segments`);
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const problem = bucketProblem(m[1]);
  if (problem) throw new Error(problem);
  return { bucket: m[1], prefix };
}

export class DeltaStore {
  readonly loc: TableLocation;
  private readonly client: S3Client;

  constructor(private readonly c: DeltaTarget) {
    this.loc = tableLocation(c.table_uri);
    const endpoint = process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL || undefined;
    const cfg: S3ClientConfig = {
      region: c.aws_region,
      credentials: { accessKeyId: c.aws_access_key_id, secretAccessKey: c.aws_secret_access_key },
      // The SDK's standard retries cover S3's throttling (503 SlowDown) and 5xx with back-off.
      maxAttempts: 4,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000, ...guardedS3Agents() },
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    };
    this.client = refuseServiceBucketRequests(new S3Client(cfg));
  }

  key(path: string): string {
    return this.loc.prefix + path;
  }

  /** An S3 error in S3's words, never a secret. */
  reason(op: string, err: unknown): Error {
    const refused = policyReason(err);
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    const status = e?.$metadata?.httpStatusCode;
    const text = refused ?? describeError(err);
    return new Error(redact(`${op} on s3://${this.loc.bucket}/${this.loc.prefix} failed: ${text}${status && !refused ? ` (HTTP ${status})` : ''}`, [this.c.aws_secret_access_key]));
  }

  async get(path: string, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.loc.bucket, Key: this.key(path) }), { abortSignal: signal });
      return await out.Body!.transformToByteArray();
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw this.reason('GetObject', err);
    }
  }

  /** Keys under `dir` (relative to the table) that sort after `startAfter`. */
  async list(dir: string, startAfter?: string, signal?: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.loc.bucket,
            Prefix: this.key(dir),
            ContinuationToken: token,
            ...(startAfter && !token ? { StartAfter: this.key(startAfter) } : {}),
          }),
          { abortSignal: signal },
        );
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(this.loc.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (err) {
      throw this.reason('ListObjectsV2', err);
    }
    return out;
  }

  async put(path: string, body: Uint8Array, opts: { ifAbsent?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.loc.bucket, Key: this.key(path), Body: body, ...(opts.ifAbsent ? { IfNoneMatch: '*' } : {}) }),
        { abortSignal: opts.signal },
      );
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      // 412: the key exists; 409 ConditionalRequestConflict: another conditional write of it is under way.
      if (opts.ifAbsent && (e.name === 'PreconditionFailed' || e.$metadata?.httpStatusCode === 412 || e.$metadata?.httpStatusCode === 409)) {
        throw new CommitConflict(`${path} already exists`);
      }
      throw this.reason('PutObject', err);
    }
  }

  async delete(path: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.loc.bucket, Key: this.key(path) }));
    } catch (err) {
      throw this.reason('DeleteObject', err);
    }
  }

  /** The bucket's region (GetBucketLocation, legacy values normalised as the platform does). */
  async bucketRegion(signal?: AbortSignal): Promise<string> {
    try {
      const out = await this.client.send(new GetBucketLocationCommand({ Bucket: this.loc.bucket }), { abortSignal: signal });
      const loc = out.LocationConstraint as string | undefined;
      return !loc ? 'us-east-1' : loc === 'EU' ? 'eu-west-1' : loc;
    } catch (err) {
      throw this.reason('GetBucketLocation', err);
    }
  }

  close(): void {
    this.client.destroy();
  }
}
