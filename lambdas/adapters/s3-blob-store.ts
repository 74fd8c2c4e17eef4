// BlobStore on the service bucket.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobStore } from '../domain/ports';
import { s3Client, s3PresignClient } from './aws-clients';

const notFound = (err: unknown) => ['NoSuchKey', 'NotFound'].includes((err as Error).name) || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

export class S3BlobStore implements BlobStore {
  constructor(private readonly bucket: string) {}

  async put(key: string, data: Uint8Array | string, contentType = 'application/octet-stream'): Promise<void> {
    await s3Client().send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: contentType }));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const out = await s3Client().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return await out.Body!.transformToByteArray();
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async getUpTo(key: string, maxBytes: number): Promise<{ data: Uint8Array } | { size: number } | undefined> {
    try {
      const out = await s3Client().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const size = out.ContentLength ?? 0;
      if (size > maxBytes) {
        // -- too large to return: close the stream unread --
        (out.Body as { destroy?: () => void } | undefined)?.destroy?.();
        return { size };
      }
      return { data: await out.Body!.transformToByteArray() };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await s3Client().send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  presignPut(key: string, contentType: string, expiresIn: number): Promise<string> {
    return getSignedUrl(s3PresignClient(), new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), { expiresIn });
  }

  presignGet(key: string, expiresIn: number): Promise<string> {
    return getSignedUrl(s3PresignClient(), new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn });
  }
}
