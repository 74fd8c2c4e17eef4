// Notification channels end to end (spec §4.6, §6): both scopes, all six operations, every 422 rule,
// 404s, the 50-per-scope limit, e-mail verification through aws-ses-v2-local, and delivery: signed
// webhooks to a local HTTPS server with a self-signed certificate (trusted through WEBHOOK_CA_FILE),
// scope filtering, and a retried failing endpoint.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { Webhook } from 'standardwebhooks';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from '../support/local-stack';
import { deliveriesSettled } from '../support/delivery-queue';
import { EventBridgePublisher } from '../../lambdas/adapters/eventbridge-publisher';
import { channelService } from '../../lambdas/services/channels';
import { sigV4 } from '../../local/emulators/sigv4-guard';

const ACCT = '/api/v1/notifications/channels';
const wfBase = (wf: string) => `/api/v1/workflows/${wf}/notifications/channels`;
const MISSING_WF = '6f1f7a53-3a6d-4c55-9a43-1f1f9c1f0b11';

let stack: TestStack;
let server: Server | undefined;
let hookBase = '';
let wfA: string;
let wfB: string;
const certDir = mkdtempSync(join(tmpdir(), 'wps-hook-'));

interface Received { path: string; headers: Record<string, string>; body: string }
const received: Received[] = [];
/** Path → statuses to answer in turn (the last one repeats); default 200. */
const script = new Map<string, number[]>();

function haveOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const NO_TLS = !haveOpenssl() && 'needs the openssl CLI to make a self-signed certificate';

before(async () => {
  if (NEEDS_LOCAL) return;
  if (!NO_TLS) {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem'),
    ], { stdio: 'ignore' });
    server = createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
        const statuses = script.get(path) ?? [200];
        const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    hookBase = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Trusted by the delivery's own agent only; TLS verification is never turned off.
    process.env.WEBHOOK_CA_FILE = join(certDir, 'cert.pem');
  }
  process.env.NOTIFICATION_RETRY_BASE_SECONDS = '1';
  stack = await startTestStack();
  wfA = (await stack.call('POST', '/api/v1/workflows/', { body: { name: 'wf-a', workflow_type: 'basic' } })).body.id;
  wfB = (await stack.call('POST', '/api/v1/workflows/', { body: { name: 'wf-b', workflow_type: 'basic' } })).body.id;
  assert.ok(wfA && wfB, 'two workflows');
});

after(async () => {
  await stack?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  delete process.env.WEBHOOK_CA_FILE;
  delete process.env.NOTIFICATION_RETRY_BASE_SECONDS;
});

const webhookBody = (over: Record<string, unknown> = {}) => ({
  channel_type: 'webhook',
  url: 'https://example.com/hook',
  event_types: ['job.completed'],
  ...over,
});

async function sesStore(): Promise<{ destination: { to: string[] }; subject: string; body: { text?: string } }[]> {
  // the mailbox answers only a request signed with the stack's emulator credential
  const headers = sigV4(stack.credentials, crypto).sign({ method: 'GET', url: '/store', headers: { host: new URL(stack.endpoints.sesv2!).host } }, 'ses', 'us-east-1');
  const res = await fetch(`${stack.endpoints.sesv2}/store`, { headers });
  return ((await res.json()) as { emails: never[] }).emails;
}

async function codeFor(address: string, after = 0): Promise<string> {
  return eventually(async () => {
    const mails = (await sesStore()).filter((m) => m.destination.to.includes(address));
    const m = mails[after];
    return m ? /code is (\d{6})/.exec(m.body.text ?? '')?.[1] : undefined;
  }, `verification mail #${after + 1} to ${address}`);
}

test('webhook channels: all six operations in both scopes; the secret is never echoed nor stored in clear', { skip: NEEDS_LOCAL }, async () => {
  const secret = `whsec_${Buffer.from('a-very-secret-signing-key-0123456789').toString('base64')}`;
  for (const base of [ACCT, wfBase(wfA)]) {
    const created = await stack.call('POST', base, { body: webhookBody({ secret, description: 'ops', event_types: ['job.completed', 'job.failed'] }) });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^ep_.+/);
    assert.deepEqual(Object.keys(created.body).sort(), ['channel_type', 'created_at', 'description', 'enabled', 'event_types', 'id', 'updated_at', 'url']);
    assert.equal(created.body.enabled, true);
    assert.ok(!created.text.includes(secret) && !created.text.includes('secret'));
    const id = created.body.id as string;

    const got = await stack.call('GET', `${base}/${id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created.body);

    const listed = await stack.call('GET', `${base}?channel_type=webhook`);
    assert.equal(listed.status, 200);
    assert.ok(listed.body.items.some((c: { id: string }) => c.id === id));
    assert.equal((await stack.call('GET', `${base}?channel_type=email`)).body.items.length, 0);

    const patched = await stack.call('PATCH', `${base}/${id}`, { body: { enabled: false, event_types: ['job.stopped'], secret: 'x'.repeat(30) } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.enabled, false);
    assert.deepEqual(patched.body.event_types, ['job.stopped']);
    assert.equal(patched.body.url, 'https://example.com/hook');
    assert.equal(patched.body.description, 'ops');
    assert.equal((await stack.call('GET', `${base}?channel_type=webhook&enabled=false`)).body.items.length, 1);
    assert.equal((await stack.call('GET', `${base}?channel_type=webhook&enabled=true`)).body.items.filter((c: { id: string }) => c.id === id).length, 0);

    const verify = await stack.call('POST', `${base}/${id}/verify`, { body: { code: '123456' } });
    assert.equal(verify.status, 400, 'webhook channels need no verification');

    const del = await stack.call('DELETE', `${base}/${id}`);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    assert.equal((await stack.call('GET', `${base}/${id}`)).status, 404);
    assert.equal((await stack.call('DELETE', `${base}/${id}`)).status, 404);
  }
  // A generated secret when none is sent: shown once in the create response (the consumer needs it
  // to verify signatures), never by a later read, nothing in clear in the table.
  const gen = await stack.call('POST', ACCT, { body: webhookBody() });
  assert.equal(gen.status, 201);
  assert.match(gen.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const generatedSecret = gen.body.secret as string;
  const reread = await stack.call('GET', `${ACCT}/${gen.body.id}`);
  assert.ok(!reread.text.includes('secret'));
  const listed = await stack.call('GET', `${ACCT}?channel_type=webhook`);
  assert.ok(!listed.text.includes(generatedSecret));
  const touched = await stack.call('PATCH', `${ACCT}/${gen.body.id}`, { body: { description: 'renamed' } });
  assert.ok(!touched.text.includes('secret'));
  // -- an empty secret drops it for a new generated one, shown once in that response --
  const rotated = await stack.call('PATCH', `${ACCT}/${gen.body.id}`, { body: { secret: '' } });
  assert.match(rotated.body.secret, /^whsec_/);
  assert.notEqual(rotated.body.secret, generatedSecret);
  const ddb = new DynamoDBClient({ region: 'us-east-1' });
  const scan = await ddb.send(new ScanCommand({ TableName: stack.env.TABLE_NAME }));
  ddb.destroy();
  const table = JSON.stringify(scan.Items);
  assert.ok(table.includes('CHANNEL#'), 'channels are stored');
  assert.ok(!table.includes(secret) && !table.includes('x'.repeat(30)), 'secrets are sealed at rest');
  assert.ok(!table.includes(generatedSecret) && !table.includes(rotated.body.secret), 'generated secrets are sealed at rest');
  await stack.call('DELETE', `${ACCT}/${gen.body.id}`);
});

test('every channel rule is a 422 with a FastAPI detail', { skip: NEEDS_LOCAL }, async () => {
  const cases: [string, string, unknown, string][] = [
    ['POST', ACCT, webhookBody({ url: 'http://example.com/hook' }), 'url'],
    ['POST', ACCT, webhookBody({ url: 'not a url' }), 'url'],
    ['POST', ACCT, webhookBody({ event_types: [] }), 'event_types'],
    ['POST', ACCT, webhookBody({ event_types: undefined }), 'event_types'],
    ['POST', ACCT, webhookBody({ event_types: ['job.exploded'] }), 'event_types'],
    ['POST', ACCT, webhookBody({ secret: 'too-short' }), 'secret'],
    ['POST', ACCT, webhookBody({ secret: 'y'.repeat(76) }), 'secret'],
    ['POST', ACCT, webhookBody({ channel_type: 'pager' }), 'channel_type'],
    ['POST', ACCT, { channel_type: 'email', email_config: { recipient_email: 'not-an-email' }, event_types: ['job.completed'] }, 'recipient_email'],
    ['POST', ACCT, { channel_type: 'email', email_config: { recipient_email: 'a@example.com', cc: ['bad'] }, event_types: ['job.completed'] }, 'cc'],
    ['POST', ACCT, { channel_type: 'email', event_types: ['job.completed'] }, 'email_config'],
    ['POST', wfBase(wfA), webhookBody({ url: 'ftp://example.com' }), 'url'],
  ];
  for (const [method, path, body, field] of cases) {
    const r = await stack.call(method, path, { body });
    assert.equal(r.status, 422, `${JSON.stringify(body)} → ${r.status} ${r.text}`);
    assert.ok(Array.isArray(r.body.detail) && r.body.detail.some((d: { loc: unknown[]; msg: string; type: string }) => d.loc.includes(field) && d.msg && d.type), `${field}: ${r.text}`);
  }
  for (const path of [ACCT, wfBase(wfA), `${ACCT}?enabled=true`, `${ACCT}?channel_type=sms`]) {
    const r = await stack.call('GET', path);
    assert.equal(r.status, 422, path);
    assert.ok(r.body.detail.some((d: { loc: unknown[] }) => d.loc.includes('channel_type')), r.text);
  }
  const ch = (await stack.call('POST', ACCT, { body: webhookBody() })).body.id as string;
  for (const body of [{ url: 'http://example.com' }, { event_types: [] }, { event_types: ['job.nope'] }, { secret: 'short' }, { email_config: { recipient_email: 'a@example.com' } }, { channel_type: 'email' }]) {
    const r = await stack.call('PATCH', `${ACCT}/${ch}`, { body });
    assert.equal(r.status, 422, `${JSON.stringify(body)} → ${r.text}`);
  }
  for (const code of ['12345', '1234567', 'abcdef', '']) {
    const r = await stack.call('POST', `${ACCT}/${ch}/verify`, { body: { code } });
    assert.equal(r.status, 422, `code ${code}`);
    assert.ok(r.body.detail.some((d: { loc: unknown[] }) => d.loc.includes('code')));
  }
  assert.equal((await stack.call('GET', `${ACCT}?channel_type=webhook&enabled=maybe`)).status, 422);
  assert.equal((await stack.call('GET', `/api/v1/workflows/not-a-uuid/notifications/channels?channel_type=webhook`)).status, 422);
  await stack.call('DELETE', `${ACCT}/${ch}`);
});

test('unknown channel, unknown workflow, another workflow and another account are 404', { skip: NEEDS_LOCAL }, async () => {
  const inA = (await stack.call('POST', wfBase(wfA), { body: webhookBody() })).body.id as string;
  const acct = (await stack.call('POST', ACCT, { body: webhookBody() })).body.id as string;
  const checks: [string, string, unknown?][] = [
    ['GET', `${ACCT}/ep_doesnotexist`],
    ['PATCH', `${ACCT}/ep_doesnotexist`, { enabled: false }],
    ['DELETE', `${ACCT}/ep_doesnotexist`],
    ['POST', `${ACCT}/ep_doesnotexist/verify`, { code: '123456' }],
    ['GET', `${wfBase(wfB)}/${inA}`], // another workflow's channel
    ['DELETE', `${wfBase(wfB)}/${inA}`],
    ['GET', `${ACCT}/${inA}`], // a workflow channel is not an account channel
    ['GET', `${wfBase(wfA)}/${acct}`], // nor the reverse
    ['GET', `${wfBase(MISSING_WF)}?channel_type=webhook`],
    ['POST', wfBase(MISSING_WF), webhookBody()],
    ['GET', `${wfBase(MISSING_WF)}/${inA}`],
  ];
  for (const [method, path, body] of checks) {
    const r = await stack.call(method, path, body === undefined ? {} : { body });
    assert.equal(r.status, 404, `${method} ${path} → ${r.status} ${r.text}`);
    assert.equal(typeof r.body.detail, 'string');
  }
  // Another account never sees this account's channels (keys start with the account).
  const other = { accountId: 'someone-else', userId: 'eve' };
  await assert.rejects(channelService().get(other, { kind: 'account' }, acct), { name: 'NotFound' });
  await assert.rejects(channelService().get(other, { kind: 'workflow', workflowId: wfA }, inA), { name: 'NotFound' });
  assert.equal((await channelService().list(other, { kind: 'account' }, { channel_type: 'webhook' })).items.length, 0);
  // A deleted workflow's channels are gone with it.
  const wfC = (await stack.call('POST', '/api/v1/workflows/', { body: { name: 'wf-c', workflow_type: 'basic' } })).body.id as string;
  await stack.call('DELETE', `/api/v1/workflows/${wfC}`);
  assert.equal((await stack.call('GET', `${wfBase(wfC)}?channel_type=webhook`)).status, 404);
  await stack.call('DELETE', `${wfBase(wfA)}/${inA}`);
  await stack.call('DELETE', `${ACCT}/${acct}`);
});

test('email channels start disabled, are verified by the mailed code, and re-verify on a new address', { skip: NEEDS_LOCAL }, async () => {
  const created = await stack.call('POST', wfBase(wfA), {
    body: { channel_type: 'email', email_config: { recipient_email: 'ops@example.com', cc: ['lead@example.com'] }, event_types: ['job.failed'], enabled: true },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.enabled, false, 'created disabled even when enabled=true is sent');
  assert.deepEqual(created.body.email_config, { provider: 'ses', recipient_email: 'ops@example.com', cc: ['lead@example.com'], reply_to: null });
  const id = created.body.id as string;
  const path = `${wfBase(wfA)}/${id}`;
  const code = await codeFor('ops@example.com');
  assert.ok(!created.text.includes(code));

  const enable = await stack.call('PATCH', path, { body: { enabled: true } });
  assert.equal(enable.status, 409, 'an unverified email channel cannot be enabled');
  assert.match(enable.body.detail, /not verified/);

  const wrong = code === '000000' ? '111111' : '000000';
  const bad = await stack.call('POST', `${path}/verify`, { body: { code: wrong } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.detail, /Invalid verification code/);
  assert.equal((await stack.call('GET', path)).body.enabled, false);

  const ok = await stack.call('POST', `${path}/verify`, { body: { code } });
  assert.equal(ok.status, 204, ok.text);
  assert.equal(ok.text, '');
  assert.equal((await stack.call('GET', path)).body.enabled, true);
  assert.equal((await stack.call('GET', `${wfBase(wfA)}?channel_type=email&enabled=true`)).body.items.length, 1);

  // Disabling and enabling a verified channel is allowed.
  assert.equal((await stack.call('PATCH', path, { body: { enabled: false } })).body.enabled, false);
  assert.equal((await stack.call('PATCH', path, { body: { enabled: true } })).body.enabled, true);

  // A new recipient resets verification and receives its own code.
  const moved = await stack.call('PATCH', path, { body: { email_config: { recipient_email: 'oncall@example.com' } } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.body.enabled, false);
  assert.equal(moved.body.email_config.recipient_email, 'oncall@example.com');
  assert.deepEqual(moved.body.email_config.cc, ['lead@example.com']);
  const code2 = await codeFor('oncall@example.com');
  assert.equal((await stack.call('POST', `${path}/verify`, { body: { code: code2 } })).status, 204);
  assert.equal((await stack.call('GET', path)).body.enabled, true);

  // The attempt limit: five wrong codes spend the code; the sixth try mails a fresh one.
  const c3 = await stack.call('POST', ACCT, { body: { channel_type: 'email', email_config: { recipient_email: 'limit@example.com' }, event_types: ['job.completed'] } });
  const first = await codeFor('limit@example.com');
  const notIt = first === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i++) assert.equal((await stack.call('POST', `${ACCT}/${c3.body.id}/verify`, { body: { code: notIt } })).status, 400);
  const spent = await stack.call('POST', `${ACCT}/${c3.body.id}/verify`, { body: { code: first } });
  assert.equal(spent.status, 400, 'the right code no longer works after five wrong ones');
  assert.match(spent.body.detail, /new code has been sent/);
  const fresh = await codeFor('limit@example.com', 1);
  assert.equal((await stack.call('POST', `${ACCT}/${c3.body.id}/verify`, { body: { code: fresh } })).status, 204);
  await stack.call('DELETE', `${ACCT}/${c3.body.id}`);
});

test('at most 50 channels per scope, exact under 60 concurrent creates (409 beyond); scopes count separately', { skip: NEEDS_LOCAL }, async () => {
  const wf = (await stack.call('POST', '/api/v1/workflows/', { body: { name: 'many', workflow_type: 'basic' } })).body.id as string;
  // All at once: a count-then-put limit lets more than 50 through; the conditional counter cannot.
  const results = await Promise.all(
    Array.from({ length: 60 }, (_, i) => stack.call('POST', wfBase(wf), { body: webhookBody({ url: `https://example.com/${i}` }) })),
  );
  const created = results.filter((r) => r.status === 201);
  const refused = results.filter((r) => r.status !== 201);
  assert.equal(created.length, 50, `201s: ${created.length}; others: ${refused.map((r) => `${r.status} ${r.text}`).slice(0, 3).join(' | ')}`);
  assert.equal(refused.length, 10);
  for (const r of refused) {
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body, { detail: 'At most 50 channels per scope; delete one first' });
  }
  const ids = created.map((r) => r.body.id as string);
  const listed = (await stack.call('GET', `${wfBase(wf)}?channel_type=webhook`)).body.items as { id: string }[];
  assert.deepEqual(listed.map((c) => c.id).sort(), [...ids].sort(), 'exactly the 50 answered 201 are stored');
  const over = await stack.call('POST', wfBase(wf), { body: webhookBody() });
  assert.equal(over.status, 409);
  const acct = await stack.call('POST', ACCT, { body: webhookBody() });
  assert.equal(acct.status, 201, 'the account scope has its own 50');
  assert.equal((await stack.call('DELETE', `${wfBase(wf)}/${ids[0]}`)).status, 204);
  assert.equal((await stack.call('POST', wfBase(wf), { body: webhookBody() })).status, 201, 'a freed slot can be reused');
  assert.equal((await stack.call('POST', wfBase(wf), { body: webhookBody() })).status, 409, 'and only that one');
  await stack.call('DELETE', `${ACCT}/${acct.body.id}`);
});

test('delivery: signed HTTPS webhooks by scope and event type, retried after a 500', { skip: NEEDS_LOCAL || NO_TLS }, async () => {
  const secret = `whsec_${Buffer.from('delivery-secret-0123456789abcdef').toString('base64')}`;
  const rawSecret = 'raw-secret-of-thirty-bytes!!!!';
  const mk = async (base: string, path: string, extra: Record<string, unknown> = {}) => {
    const r = await stack.call('POST', base, { body: webhookBody({ url: `${hookBase}${path}`, secret, event_types: ['job.completed', 'job.failed'], ...extra }) });
    assert.equal(r.status, 201, r.text);
    return r.body.id as string;
  };
  const acctCh = await mk(ACCT, '/account');
  const wfACh = await mk(wfBase(wfA), '/wf-a', { secret: rawSecret });
  await mk(wfBase(wfB), '/wf-b');
  await mk(wfBase(wfA), '/wf-a-scheduled-only', { event_types: ['job.scheduled'] });
  await mk(wfBase(wfA), '/wf-a-disabled', { enabled: false });
  script.set('/flaky', [500, 500, 200]);
  const flaky = await mk(wfBase(wfA), '/flaky');

  const jobId = '0d9c9d7e-1111-4c55-9a43-1f1f9c1f0b11';
  const publisher = new EventBridgePublisher(stack.env.EVENT_BUS_NAME!);
  await publisher.publish('job.completed', { account_id: 'default', job_id: jobId, workflow_id: wfA, workflow_name: 'wf-a', status: 'COMPLETED', job_type: 'persistent', message: null });
  await stack.eventsIdle();

  const got = (p: string) => received.filter((r) => r.path === p);
  await eventually(async () => (got('/account').length && got('/wf-a').length ? true : undefined), 'account and workflow A deliveries');
  await eventually(async () => (got('/flaky').length >= 3 ? true : undefined), 'the flaky endpoint retried until it answers 200', 30_000);

  const verifyWith = (r: Received, wh: Webhook) => wh.verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
  const payload = verifyWith(got('/account')[0]!, new Webhook(secret));
  assert.equal(payload.type, 'job.completed');
  assert.ok(!Number.isNaN(Date.parse(payload.timestamp)));
  assert.equal(payload.data.job_id, jobId);
  assert.equal(payload.data.workflow_id, wfA);
  assert.ok(!('account_id' in payload.data));
  assert.ok(!('occurred_at' in payload.data), 'the publisher\'s ordering field is not passed on');
  const hdr = got('/account')[0]!.headers;
  assert.match(hdr['webhook-id']!, /^msg_/);
  assert.match(hdr['webhook-timestamp']!, /^\d+$/);
  assert.match(hdr['webhook-signature']!, /^v1,[A-Za-z0-9+/=]+$/);
  // A raw (non-whsec_) secret signs with its bytes.
  verifyWith(got('/wf-a')[0]!, new Webhook(rawSecret, { format: 'raw' }));
  assert.throws(() => verifyWith(got('/wf-a')[0]!, new Webhook(secret)), 'another secret does not verify');

  // Retries keep the message id; each attempt is signed afresh and verifies.
  const attempts = got('/flaky');
  assert.equal(new Set(attempts.map((a) => a.headers['webhook-id'])).size, 1);
  for (const a of attempts) verifyWith(a, new Webhook(secret));

  // Every delivery the event queued has been attempted: nobody else heard it.
  await deliveriesSettled(stack);
  assert.equal(got('/wf-b').length, 0, "another workflow's channel hears nothing");
  assert.equal(got('/wf-a-scheduled-only').length, 0, 'an unsubscribed event type is not delivered');
  assert.equal(got('/wf-a-disabled').length, 0, 'a disabled channel is not delivered to');
  assert.equal(got('/account').length, 1);
  assert.equal(got('/wf-a').length, 1);
  assert.equal(got('/flaky').length, 3);

  // An event of workflow B: the account channel and B's channel hear it, A's do not.
  received.length = 0;
  await publisher.publish('job.failed', { account_id: 'default', job_id: jobId, workflow_id: wfB, status: 'FAILED', job_type: 'persistent', message: 'boom' });
  await stack.eventsIdle();
  await eventually(async () => (got('/account').length && got('/wf-b').length ? true : undefined), 'account and workflow B deliveries');
  await deliveriesSettled(stack);
  assert.equal(got('/wf-a').length + got('/flaky').length, 0);
  assert.equal(verifyWith(got('/wf-b')[0]!, new Webhook(secret)).type, 'job.failed');
  for (const id of [acctCh]) await stack.call('DELETE', `${ACCT}/${id}`);
  for (const id of [wfACh, flaky]) await stack.call('DELETE', `${wfBase(wfA)}/${id}`);
});

test('delivery through a real job: its lifecycle events reach a webhook signed with the generated secret', { skip: NEEDS_LOCAL || NO_TLS }, async () => {
  const ch = await stack.call('POST', ACCT, {
    body: webhookBody({ url: `${hookBase}/job-run`, event_types: ['job.scheduled', 'job.in_progress', 'job.completed'] }),
  });
  assert.equal(ch.status, 201, ch.text);
  const generated = ch.body.secret as string;
  assert.match(generated, /^whsec_/);
  const form = new FormData();
  form.append('request_data', JSON.stringify({ job_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] }));
  form.append('input_files', new Blob([Buffer.from('A short document for the channel test.')]), 'note.txt');
  let job: { status: number; body: any; text: string };
  for (;;) {
    job = await stack.call('POST', '/api/v1/jobs/', { raw: form });
    if (job.status !== 429) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  assert.equal(job.status, 200, job.text);
  const hits = () => received.filter((r) => r.path === '/job-run');
  await eventually(async () => (hits().length >= 3 ? true : undefined), 'three lifecycle deliveries', 60_000);
  const events = hits().map((r) => new Webhook(generated).verify(r.body, r.headers) as { type: string; data: { job_id: string; status: string } });
  assert.deepEqual(events.map((e) => e.type).sort(), ['job.completed', 'job.in_progress', 'job.scheduled']);
  assert.ok(events.every((e) => e.data.job_id === job.body.id));
  assert.equal(events.find((e) => e.type === 'job.completed')!.data.status, 'COMPLETED');
  await stack.call('DELETE', `${ACCT}/${ch.body.id}`);
});

test('delivery: a verified email channel gets the event through SES; an unverified one does not', { skip: NEEDS_LOCAL }, async () => {
  const mkEmail = async (to: string) => {
    const r = await stack.call('POST', ACCT, { body: { channel_type: 'email', email_config: { recipient_email: to }, event_types: ['job.stopped'] } });
    assert.equal(r.status, 201);
    return r.body.id as string;
  };
  const verified = await mkEmail('verified@example.com');
  await mkEmail('unverified@example.com');
  assert.equal((await stack.call('POST', `${ACCT}/${verified}/verify`, { body: { code: await codeFor('verified@example.com') } })).status, 204);
  await codeFor('unverified@example.com');
  await new EventBridgePublisher(stack.env.EVENT_BUS_NAME!).publish('job.stopped', { account_id: 'default', job_id: 'j-1', workflow_id: null, status: 'STOPPED' });
  await stack.eventsIdle();
  const mail = await eventually(async () => (await sesStore()).find((m) => m.destination.to.includes('verified@example.com') && m.subject.startsWith('job.stopped')), 'the event e-mail');
  assert.match(mail.body.text ?? '', /j-1/);
  await deliveriesSettled(stack);
  assert.equal((await sesStore()).filter((m) => m.destination.to.includes('unverified@example.com')).length, 1, 'only the verification code');
});
