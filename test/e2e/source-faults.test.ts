// A workflow's source misbehaving mid-run, through the HTTP API (issue 10, "Bad input"): an s3
// source (the real AWS SDK) reaches a real S3 (s3rver) through a proxy that can turn faulty:
// - a malformed listing page, and a listing that pages without end: the run ends FAILED with the
//   reason in failed-files, its slot is freed, and nothing is recorded as delivered;
// - access revoked for one document after the listing: that file fails with the store's reason, the
//   others are delivered (COMPLETED_WITH_ERRORS), and the next run processes exactly that file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { S3RVER_CREDENTIALS, startS3 } from '../../local/emulators/s3';
import { NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { createProxiedS3Workflow, runWorkflowJob, startS3FaultProxy, type S3Fault } from '../support/s3-fault-proxy';

let stack: TestStack;
let s3: Awaited<ReturnType<typeof startS3>>;
let raw: S3Client;
let proxy: Server;
let proxyUrl = '';
const base = mkdtempSync(join(tmpdir(), 'wps-src-faults-'));
const outDir = join(base, 'out');

type Mode = 'ok' | 'malformed-listing' | 'endless-listing' | 'deny-b';
let mode: Mode = 'ok';

/** The fault of the current mode: answered here, or left to s3rver. */
const fault: S3Fault = (req, res, url) => {
  const listing = req.method === 'GET' && url.searchParams.get('list-type') === '2';
  if (listing && mode === 'malformed-listing') {
    res.writeHead(200, { 'content-type': 'application/xml' }).end('<ListBucketResult><Contents><Key>a.txt</Key><Size>oops');
    return true;
  }
  if (listing && mode === 'endless-listing') {
    // every page says there is another one, and names the same two documents again
    const page = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>tenant-docs</Name><Prefix></Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>again</NextContinuationToken><Contents><Key>a.txt</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>"1"</ETag><Size>5</Size></Contents><Contents><Key>b.txt</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>"2"</ETag><Size>5</Size></Contents></ListBucketResult>`;
    res.writeHead(200, { 'content-type': 'application/xml' }).end(page);
    return true;
  }
  if (mode === 'deny-b' && req.method === 'GET' && url.pathname.endsWith('/b.txt')) {
    res.writeHead(403, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied (revoked for this test)</Message></Error>');
    return true;
  }
  return false;
};

const put = (key: string, body: string) => raw.send(new PutObjectCommand({ Bucket: 'tenant-docs', Key: key, Body: body }));
const text = (title: string) => `${title}\n\nA short paragraph about ${title}, long enough to be a narrative text element.\n`;

before(async () => {
  if (NEEDS_LOCAL) return;
  s3 = await startS3({ dataDir: join(base, 's3'), buckets: ['tenant-docs'] });
  raw = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  for (const k of ['a', 'b', 'c']) await put(`${k}.txt`, text(k.toUpperCase()));
  ({ server: proxy, url: proxyUrl } = await startS3FaultProxy(s3.endpoint, fault));
  process.env.SOURCE_MAX_DOCUMENTS_PER_RUN = '50';
  stack = await startTestStack();
});
after(async () => {
  delete process.env.SOURCE_MAX_DOCUMENTS_PER_RUN;
  await stack?.close();
  proxy?.close();
  raw?.destroy();
  await s3?.stop();
});

const run = (workflowId: string) => runWorkflowJob(stack, workflowId);

test('a faulty source: malformed or endless listings fail the run with the reason; a revoked document fails alone and is retried next run', { skip: NEEDS_LOCAL }, async () => {
  const id = await createProxiedS3Workflow(stack, proxyUrl, outDir, 'faults');

  mode = 'malformed-listing';
  const r1 = await run(id);
  assert.equal(r1.job.status, 'FAILED', JSON.stringify(r1));
  assert.equal(r1.failed.length, 1, JSON.stringify(r1.failed));
  assert.equal(r1.failed[0]!.document, 'source listing');
  assert.match(r1.failed[0]!.error, /s3 source: listing failed: .*ListObjectsV2/);

  mode = 'endless-listing';
  const r2 = await run(id); // a second run could start: the failed run freed its slot and its workflow
  assert.equal(r2.job.status, 'FAILED');
  assert.match(r2.failed[0]!.error, /listed more than 50 documents/);
  assert.equal(existsSync(outDir), false, 'nothing was processed by the failed runs');

  // the listing works; after it, b.txt cannot be read any more
  mode = 'deny-b';
  const r3 = await run(id);
  assert.equal(r3.job.status, 'COMPLETED');
  assert.equal(r3.details.processing_status, 'COMPLETED_WITH_ERRORS');
  assert.deepEqual(r3.failed.map((f) => f.document), ['b.txt'], JSON.stringify(r3.failed));
  assert.match(r3.failed[0]!.error, /s3 source: .*AccessDenied/);
  assert.equal(r3.details.source_documents.listed, 3);
  assert.ok(existsSync(join(outDir, 'a.txt.json')) && existsSync(join(outDir, 'c.txt.json')));
  const aBefore = readFileSync(join(outDir, 'a.txt.json'), 'utf8');

  // access is back: only the document that failed is processed, the delivered ones are kept
  mode = 'ok';
  const r4 = await run(id);
  assert.equal(r4.details.processing_status, 'SUCCESS', JSON.stringify(r4));
  assert.equal(r4.details.source_documents.processed, 1);
  assert.equal(r4.details.source_documents.unchanged_skipped, 2);
  assert.ok(existsSync(join(outDir, 'b.txt.json')));
  assert.equal(readFileSync(join(outDir, 'a.txt.json'), 'utf8'), aBefore);
});
