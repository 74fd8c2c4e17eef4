// BlobStore on the service bucket.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobStore } from '../domain/ports';
import { s3Client, s3PresignClient } from './aws-clients';

/** Parts of a streamed upload (S3's minimum is 5 MiB for every part but the last). */
const PART_BYTES = 8 * 1024 * 1024;

const notFound = (err: unknown) => ['NoSuchKey', 'NotFound'].includes((err as Error).name) || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

export class S3BlobStore implements BlobStore {
  constructor(private readonly bucket: string) {}

  async put(key: string, data: Uint8Array | string, contentType = 'application/octet-stream'): Promise<void> {
    await s3Client().send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: contentType }));
  }

  async putStream(key: string, chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, contentType = 'application/octet-stream'): Promise<number> {
    const enc = new TextEncoder();
    let buffered: Uint8Array[] = [];
    let bufferedBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number }[] = [];
    const take = () => {
      const body = Buffer.concat(buffered, bufferedBytes);
      buffered = [];
      bufferedBytes = 0;
      return body;
    };
    const sendPart = async (body: Buffer) => {
      uploadId ??= (await s3Client().send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }))).UploadId!;
      const PartNumber = parts.length + 1;
      const out = await s3Client().send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: body, ContentLength: body.length }));
      parts.push({ ETag: out.ETag!, PartNumber });
    };
    try {
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? enc.encode(chunk) : chunk;
        buffered.push(bytes);
        bufferedBytes += bytes.length;
        total += bytes.length;
        if (bufferedBytes >= PART_BYTES) await sendPart(take());
      }
      if (uploadId === undefined) {
        await this.put(key, take(), contentType);
        return total;
      }
      if (bufferedBytes > 0) await sendPart(take());
      await s3Client().send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return total;
    } catch (err) {
      if (uploadId) await s3Client().send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw err;
    }
  }

  async *lines(key: string): AsyncIterable<string> {
    let body: Readable;
    try {
      body = (await s3Client().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }))).Body as Readable;
    } catch (err) {
      if (notFound(err)) return;
      throw err;
    }
    const rl = createInterface({ input: body, crlfDelay: Infinity });
    try {
      for await (const line of rl) if (line) yield line;
    } finally {
      rl.close();
      body.destroy();
    }
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

  presignPut(key: string, contentType: string, bytes: number, expiresIn: number): Promise<string> {
    return getSignedUrl(s3PresignClient(), new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: bytes, IfNoneMatch: '*' }), {
      expiresIn,
      // -- signed, so S3 refuses a PUT of another length or onto an existing object --
      signableHeaders: new Set(['content-type', 'content-length', 'if-none-match']),
    });
  }

  presignGet(key: string, expiresIn: number): Promise<string> {
    return getSignedUrl(s3PresignClient(), new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn });
  }
}
