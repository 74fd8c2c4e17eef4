// A workflow whose s3 source (the real AWS SDK) reads a real S3 (s3rver) through a proxy that can
// misbehave per request, and the run of such a workflow through the HTTP API: shared by the e2e
// tests of a faulty source (source-faults) and of bad input in a job's files (job-bad-input).
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { S3RVER_CREDENTIALS } from '../../local/emulators/s3';
import { eventually, type TestStack } from './local-stack';

/** Answers a request itself (and returns true) or leaves it to s3rver (false). */
export type S3Fault = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

/** Forwards to s3rver unchanged (the SigV4 signature covers the Host header, kept as sent), except where `fault` answers. */
export function startS3FaultProxy(target: string, fault: S3Fault): Promise<{ server: Server; url: string }> {
  const t = new URL(target);
  const server = createServer((req, res) => {
    if (fault(req, res, new URL(req.url ?? '/', 'http://x'))) return;
    // a fresh connection per request (agent: false): a kept-alive socket to s3rver can be closed by its idle
    // timeout just as it is reused, and the reset reached the client as "socket hang up" (a flaky failed file)
    const fwd = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers, agent: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

/** A custom workflow: s3://tenant-docs/ through the proxy → partition (fast) → a local folder. Its id. */
export async function createProxiedS3Workflow(stack: TestStack, proxyUrl: string, outDir: string, name: string): Promise<string> {
  const source = await stack.call('POST', '/api/v1/sources/', {
    body: { name: 'tenant', type: 's3', config: { remote_url: 's3://tenant-docs/', endpoint_url: proxyUrl, key: S3RVER_CREDENTIALS.accessKeyId, secret: S3RVER_CREDENTIALS.secretAccessKey } },
  });
  assert.equal(source.status, 200, source.text);
  const dest = await stack.call('POST', '/api/v1/destinations/', { body: { name: 'out', type: 'local', config: { remote_url: outDir } } });
  assert.equal(dest.status, 200, dest.text);
  const wf = await stack.call('POST', '/api/v1/workflows/', {
    body: {
      name,
      workflow_type: 'custom',
      source_id: source.body.id,
      destination_id: dest.body.id,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    },
  });
  assert.equal(wf.status, 200, wf.text);
  return wf.body.id as string;
}

/** Runs the workflow and waits for its job to end: the job, its details and its failed files. */
export async function runWorkflowJob(stack: TestStack, workflowId: string, timeoutMs = 180_000) {
  const r = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
  assert.equal(r.status, 202, r.text);
  const job = await eventually(async () => {
    const j = await stack.call('GET', `/api/v1/jobs/${r.body.id}`);
    return ['COMPLETED', 'FAILED', 'STOPPED'].includes(j.body.status) ? j.body : undefined;
  }, 'workflow job', timeoutMs);
  const details = (await stack.call('GET', `/api/v1/jobs/${job.id}/details`)).body;
  const failed = (await stack.call('GET', `/api/v1/jobs/${job.id}/failed-files`)).body.failed_files as { document: string; error: string }[];
  return { job, details, failed };
}
