// The S3 and Azure Blob emulator launchers: free ports, data kept under dataDir across restarts
// (what `npm start` relies on), and idempotent stop.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient } from '@azure/storage-blob';
import { S3RVER_CREDENTIALS, startS3 } from '../../../local/emulators/s3';
import { startAzurite } from '../../../local/emulators/azurite';
import { tempDir } from './helpers';

const dir = tempDir('emulators');
after(() => dir.remove());

function s3Client(endpoint: string): S3Client {
  return new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
}

test('s3rver: two instances get different free ports; objects persist across a restart', async () => {
  const data = join(dir.path, 's3');
  const a = await startS3({ dataDir: data, buckets: ['keep'] });
  const b = await startS3({ dataDir: join(dir.path, 's3-other') });
  try {
    assert.notEqual(a.endpoint, b.endpoint);
    assert.match(a.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    const c = s3Client(a.endpoint);
    await c.send(new PutObjectCommand({ Bucket: 'keep', Key: 'k.txt', Body: 'persisted' }));
    c.destroy();
  } finally {
    await a.stop();
    await a.stop();
    await b.stop();
  }
  const again = await startS3({ dataDir: data, buckets: ['keep'] });
  try {
    const c = s3Client(again.endpoint);
    const got = await c.send(new GetObjectCommand({ Bucket: 'keep', Key: 'k.txt' }));
    assert.equal(await got.Body!.transformToString(), 'persisted');
    c.destroy();
  } finally {
    await again.stop();
  }
});

test('s3rver: an object is replaced whole — a GET during a slow PUT reads the previous object entire, a GET after the PUT the new one', async () => {
  const s3 = await startS3({ dataDir: join(dir.path, 's3-atomic'), buckets: ['b'] });
  // a plain streamed body (s3rver does not decode the SDK's aws-chunked checksum framing)
  const c = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS, requestChecksumCalculation: 'WHEN_REQUIRED' });
  try {
    const v1 = Buffer.alloc(256 * 1024, 'a');
    await c.send(new PutObjectCommand({ Bucket: 'b', Key: 'o.json', Body: v1 }));
    // v2 arrives in 16 slices, the first ones while the GET below runs
    const slice = Buffer.alloc(64 * 1024, 'b');
    let sent = 0;
    let halfway!: () => void;
    const half = new Promise<void>((r) => (halfway = r));
    const body = new Readable({
      read() {
        if (sent === 16) return void this.push(null);
        sent++;
        if (sent === 8) halfway();
        setTimeout(() => this.push(slice), 20);
      },
    });
    const put = c.send(new PutObjectCommand({ Bucket: 'b', Key: 'o.json', Body: body, ContentLength: 16 * slice.length }));
    await half;
    const during = Buffer.from(await (await c.send(new GetObjectCommand({ Bucket: 'b', Key: 'o.json' }))).Body!.transformToByteArray());
    assert.equal(during.length, v1.length, 'the previous object, whole');
    assert.ok(during.equals(v1));
    await put;
    const after = Buffer.from(await (await c.send(new GetObjectCommand({ Bucket: 'b', Key: 'o.json' }))).Body!.transformToByteArray());
    assert.equal(after.length, 16 * slice.length, 'the new object, whole, as soon as the PUT is answered');
    assert.ok(after.every((x) => x === 0x62));
  } finally {
    c.destroy();
    await s3.stop();
  }
});

test('azurite: data under dataDir persists across a restart', async () => {
  const data = join(dir.path, 'azurite');
  const first = await startAzurite({ dataDir: data });
  try {
    const svc = BlobServiceClient.fromConnectionString(first.connectionString);
    await svc.createContainer('keep');
    await svc.getContainerClient('keep').getBlockBlobClient('k.txt').upload('persisted', 9);
  } finally {
    await first.stop();
    await first.stop();
  }
  assert.ok(existsSync(join(data, '__blobstorage__')));
  const again = await startAzurite({ dataDir: data });
  try {
    const svc = BlobServiceClient.fromConnectionString(again.connectionString);
    const buf = await svc.getContainerClient('keep').getBlobClient('k.txt').downloadToBuffer();
    assert.equal(buf.toString(), 'persisted');
  } finally {
    await again.stop();
  }
});
