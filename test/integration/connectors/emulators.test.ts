// The S3 and Azure Blob emulator launchers: free ports, data kept under dataDir across restarts
// (what `npm start` relies on), and idempotent stop.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
