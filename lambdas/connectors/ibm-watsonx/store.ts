// The S3-compatible object storage under the watsonx.data catalog (IBM Cloud Object Storage): data
// files and manifests at the table's `location` (s3://bucket/path), reached at
// https://<object_storage_endpoint> with the HMAC key pair and region, as pyiceberg's S3 FileIO is
// configured by the platform (s3.endpoint, s3.access-key-id, s3.secret-access-key, s3.region). AWS
// SDK over the outbound policy's agents. The endpoint is a bare origin (a path would prefix every
// bucket), and the service's own bucket is refused, in locations and on every request as sent.
import { GetObjectCommand, DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describeError } from '../definition';
import { redact } from '../agents';
import { bucketProblem, refuseServiceBucketRequests, s3EndpointProblem } from '../service-boundary';
import { guardedS3Agents, policyReason } from '../../net/outbound';
import { endpointUrl, type WatsonxTarget } from './catalog';

export interface ObjectLocation {
  bucket: string;
  key: string;
}

/** s3://bucket/key (also s3a:// and s3n://, which Iceberg writers use too). */
export function parseLocation(uri: string): ObjectLocation {
  const m = /^s3[an]?:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!m || !m[1]) throw new Error(`the table's location ${JSON.stringify(uri)} is not an s3:// location (this writer writes S3-compatible object storage only)`);
  const problem = bucketProblem(m[1]);
  if (problem) throw new Error(problem);
  return { bucket: m[1], key: m[2] ?? '' };
}

export class ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly c: WatsonxTarget) {
    const endpoint = endpointUrl(c.object_storage_endpoint);
    const problem = s3EndpointProblem(endpoint, 'object_storage_endpoint');
    if (problem) throw new Error(problem);
    this.client = refuseServiceBucketRequests(new S3Client({
      region: c.object_storage_region,
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key },
      // The SDK's standard retries cover throttling (503 SlowDown) and 5xx with back-off.
      maxAttempts: 4,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000, ...guardedS3Agents() },
    }));
  }

  private reason(op: string, uri: string, err: unknown): Error {
    const refused = policyReason(err);
    const status = (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
    return new Error(redact(`${op} ${uri} on the object storage failed: ${refused ?? describeError(err)}${status && !refused ? ` (HTTP ${status})` : ''}`, [this.c.secret_access_key, this.c.iam_api_key]));
  }

  async get(uri: string, signal?: AbortSignal): Promise<Uint8Array> {
    const { bucket, key } = parseLocation(uri);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
      return await out.Body!.transformToByteArray();
    } catch (err) {
      throw this.reason('GetObject', uri, err);
    }
  }

  async put(uri: string, body: Uint8Array, signal?: AbortSignal): Promise<void> {
    const { bucket, key } = parseLocation(uri);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }), { abortSignal: signal });
    } catch (err) {
      throw this.reason('PutObject', uri, err);
    }
  }

  async delete(uri: string): Promise<void> {
    const { bucket, key } = parseLocation(uri);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      throw this.reason('DeleteObject', uri, err);
    }
  }

  /** How many objects (up to 1,000) are under the location: proves the bucket and the key pair. */
  async count(uri: string, signal?: AbortSignal): Promise<number> {
    const { bucket, key } = parseLocation(uri);
    try {
      const out = await this.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key ? `${key.replace(/\/+$/, '')}/` : undefined, MaxKeys: 1000 }), { abortSignal: signal });
      return out.KeyCount ?? out.Contents?.length ?? 0;
    } catch (err) {
      throw this.reason('ListObjectsV2', uri, err);
    }
  }

  close(): void {
    this.client.destroy();
  }
}
