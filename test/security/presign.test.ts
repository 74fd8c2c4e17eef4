// Finding 10a: a presigned upload URL carried `x-amz-checksum-crc32=AAAAAA==` (the CRC32 of an empty
// body, computed when the URL was signed), which real S3 rejects for any non-empty upload. The URL
// must carry no precomputed checksum, and a real PUT of a non-empty body through it still works.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { S3BlobStore } from '../../lambdas/adapters/s3-blob-store';

let stack: TestStack;

before(async () => {
  if (NEEDS_LOCAL) return;
  stack = await startTestStack({ authMode: 'none' });
});
after(async () => {
  await stack?.close();
});

function checksumParams(url: string): string[] {
  return [...new URL(url).searchParams.keys()].filter((k) => /^x-amz-(checksum-|sdk-checksum-algorithm)/i.test(k));
}

test('a presigned upload URL carries no precomputed checksum, and a non-empty PUT through it works', { skip: NEEDS_LOCAL }, async () => {
  const body = Buffer.from('%PDF-1.4 not really a pdf, but bytes to upload\n'.repeat(100));
  const ticket = await stack.call('POST', '/api/v1/uploads/', { body: { filename: 'report.pdf', content_type: 'application/pdf', size: body.length } });
  assert.equal(ticket.status, 201, ticket.text);
  const url = ticket.body.upload_url as string;
  assert.deepEqual(checksumParams(url), [], url);
  assert.ok(new URL(url).searchParams.get('X-Amz-Signature'), 'the URL is signed');

  const put = await fetch(url, { method: 'PUT', headers: ticket.body.headers, body });
  assert.equal(put.status, 200, await put.text());
  const stored = await new S3BlobStore(stack.env.BUCKET_NAME).get(new URL(url).pathname.split('/').slice(2).join('/'));
  assert.deepEqual(Buffer.from(stored!), body);
});

test('a presigned download URL carries no checksum parameters either', { skip: NEEDS_LOCAL }, async () => {
  const url = await new S3BlobStore(stack.env.BUCKET_NAME).presignGet('jobs/x/y.json', 60);
  assert.deepEqual(checksumParams(url), [], url);
});
