// The web console (issue 30) in a real browser against `npm start` in keyed mode: sign-in, the
// playground (elements, a table rendered from text_as_html, a document's markup never run), the
// jobs list and a job watched to its end with a failed file's error, a connector form refusing a bad
// value with the API's message next to the field, a workflow created, run and watched to COMPLETED,
// a notification marked read and the badge dropping. Each test leaves a screenshot in
// test-artifacts/browser/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as crypto from 'node:crypto';
import { sigV4 } from '../../local/emulators/sigv4-guard';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { ARTIFACTS, launch, NO_BROWSER, watchedPage } from '../support/browser';

let svc: ServiceProcess;
let browser: Browser;
let key: string;
const files = mkdtempSync(join(tmpdir(), 'wps-console-'));
// -- the local connector's root: the account's folder holds the workflow test's inbox --
const root = mkdtempSync(join(tmpdir(), 'wps-console-root-'));

before(async () => {
  if (NO_BROWSER) return;
  mkdirSync(join(root, 'console', 'inbox'), { recursive: true });
  writeFileSync(join(root, 'console', 'inbox', 'memo.txt'), 'A memo for the workflow.\n\nIts second paragraph.');
  svc = await startServiceProcess({ authMode: 'keyed', env: { LOCAL_CONNECTOR_ROOT: root, LOCAL_WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
  key = svc.createKey('console', 'tester');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await svc?.stop();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${svc.url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
}

test('sign-in: / opens the console; a wrong key is refused with the reason; the key is in no URL and not in localStorage', { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await page.goto(`${svc.url}/`);
  assert.match(page.url(), /\/console$/);
  await page.getByLabel('API key').fill('wrong-key');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'This key was refused' }).waitFor();
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
  assert.ok(!page.url().includes(key));
  assert.equal(await page.evaluate('JSON.stringify(localStorage)').then((s) => String(s).includes(key)), false);
  await page.screenshot({ path: join(ARTIFACTS, 'sign-in.png') });
  assert.deepEqual(problems, []);
});

test('sign-in: a key revoked while the console is open returns to sign-in with the reason', { skip: NO_BROWSER }, async () => {
  const out = svc.keys('create', '--account', 'console', '--user', 'leaver');
  const revocable = /API key \(shown once, store it now\): (\S+)/.exec(out)?.[1];
  const keyId = /created key (\S+)/.exec(out)?.[1];
  assert.ok(revocable && keyId, out);
  const { page, problems } = await watchedPage(browser);
  await page.goto(`${svc.url}/`);
  await page.getByLabel('API key').fill(revocable);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
  svc.keys('revoke', '--account', 'console', keyId);
  // -- the next call with the revoked key: back to sign-in, the API's reason shown --
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.getByLabel('API key').waitFor();
  await page.getByRole('status').waitFor();
  assert.match(await page.getByRole('status').innerText(), /Signed out: .*API key/);
  await page.screenshot({ path: join(ARTIFACTS, 'sign-in-revoked.png') });
  assert.deepEqual(problems.filter((p) => !/401/.test(p)), []);
});

test("playground: a document's elements, its table from text_as_html, and none of its markup runs", { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  const doc = join(files, 'hostile.html');
  writeFileSync(
    doc,
    `<html><body><h1>Quarterly <img src=x onerror="window.__ran='img'"> report</h1>
<p>Plain paragraph <a href="javascript:window.__ran='link'">click</a> with <script>window.__ran='script'</script> markup.</p>
<table><tr><th colspan="2">Region <svg onload="window.__ran='svg'"></svg></th></tr><tr><td>North</td><td>12</td></tr><tr><td onclick="window.__ran='td'">South</td><td>7</td></tr></table>
</body></html>`,
  );
  await page.setInputFiles('input[type=file]', doc);
  await page.getByRole('button', { name: 'Partition' }).click();
  const table = page.getByRole('button', { name: /Table/ }).first();
  await table.waitFor({ timeout: 60_000 });
  await table.click();
  const rendered = page.locator('.table-view table');
  await rendered.waitFor();
  assert.equal(await rendered.locator('[colspan="2"]').count(), 1, 'the merged header cell keeps its colspan');
  assert.equal(await rendered.locator('[onclick], [onload], svg, img, script, a').count(), 0, 'nothing but table markup is rendered');
  await page.getByRole('button', { name: /Title/ }).first().click();
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate('window.__ran'), undefined, 'no markup of the document ran');
  await page.screenshot({ path: join(ARTIFACTS, 'playground.png') });
  assert.deepEqual(problems, []);
});

test('playground: a PDF page is drawn with a box per element, coloured by type; a box selects its element', { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  await page.setInputFiles('input[type=file]', join(process.cwd(), '..', 'shared', 'corpus', 'docs', 'multi-column-2p.pdf'));
  await page.getByLabel('Strategy').selectOption('fast');
  await page.getByRole('button', { name: 'Partition' }).click();
  await page.locator('[data-testid="pdf-page"][data-drawn="yes"]').waitFor({ timeout: 90_000 });
  const boxes = page.locator('[data-testid="pdf-page"] rect');
  assert.ok((await boxes.count()) > 5, `${await boxes.count()} boxes on page 1`);
  assert.ok((await page.locator('[data-testid="pdf-page"] rect[data-type="Title"]').count()) >= 1, 'titles boxed in their colour');
  await boxes.nth(2).click();
  await page.locator('.element-list .el.selected').waitFor();
  assert.match(await page.locator('pre.json').innerText(), /"coordinates"/);
  await page.screenshot({ path: join(ARTIFACTS, 'pdf-page.png') });
  assert.deepEqual(problems, []);
});

test('keyboard and phone width: signed in and partitioned with keys alone, two strategies side by side, nothing wider than the window', { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${svc.url}/`);
  // -- sign in without the mouse: the key field takes the first Tab, Enter submits (once the console,
  // -- past "Connecting…", shows the form) --
  await page.getByLabel('API key').waitFor();
  const focusedLabel = () => page.evaluate('document.activeElement?.labels?.[0]?.textContent?.trim() ?? document.activeElement?.outerHTML?.slice(0, 80)');
  for (let i = 0; i < 5 && (await focusedLabel()) !== 'API key'; i++) await page.keyboard.press('Tab');
  assert.equal(await focusedLabel(), 'API key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
  // -- every area of the main navigation is reached by Tab, and the focused control shows it --
  const reached = new Set<string>();
  for (let i = 0; i < 25 && reached.size < 7; i++) {
    await page.keyboard.press('Tab');
    const focused = (await page.evaluate(`(() => { const a = document.activeElement; return a && a.closest('nav') ? [a.textContent.trim(), getComputedStyle(a).outlineStyle] : null })()`)) as [string, string] | null;
    if (!focused) continue;
    assert.notEqual(focused[1], 'none', `${focused[0]}: focus is visible`);
    reached.add(focused[0].replace(/\s*\d+$/, ''));
  }
  for (const area of ['Playground', 'Sources', 'Destinations', 'Workflows', 'Jobs', 'Notifications']) assert.ok([...reached].some((r) => r.startsWith(area)), `${area} reached by Tab: ${[...reached]}`);
  // -- compare: the same PDF by two strategies, each with its elements --
  await page.setInputFiles('input[type=file]', join(process.cwd(), '..', 'shared', 'corpus', 'docs', 'embedded-images-tables.pdf'));
  await page.getByLabel('Strategy').selectOption('fast');
  await page.getByLabel('Compare with').selectOption('hi_res');
  await page.getByRole('button', { name: 'Partition' }).focus();
  await page.keyboard.press('Enter');
  const results = page.locator('.compare .result');
  await page.locator('.compare .result h3', { hasText: 'strategy hi_res ·' }).waitFor({ timeout: 120_000 });
  await page.locator('.compare .result h3', { hasText: 'strategy fast ·' }).waitFor({ timeout: 60_000 });
  assert.equal(await results.count(), 2);
  for (let i = 0; i < 2; i++) assert.ok((await results.nth(i).locator('.element-list .el').count()) > 0, `result ${i} lists its elements`);
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
  assert.ok(overflow <= 1, `the page is ${overflow} px wider than a 390 px window`);
  await page.screenshot({ path: join(ARTIFACTS, 'phone-compare.png'), fullPage: false });
  assert.deepEqual(problems, []);
});

test('jobs: a job appears in the live list, its page follows it to COMPLETED, a failed file shows its error', { skip: NO_BROWSER }, async () => {
  const create = async (name: string, data: string) => {
    const form = new FormData();
    form.append('request_data', JSON.stringify({ template_id: 'fast_partition' }));
    form.append('input_files', new Blob([data]), name);
    const r = await fetch(`${svc.url}/api/v1/jobs/`, { method: 'POST', headers: { 'unstructured-api-key': key }, body: form });
    assert.equal(r.status, 200, await r.clone().text());
    return ((await r.json()) as { id: string }).id;
  };
  const good = await create('notes.txt', 'A short note.\n\nA second paragraph.');
  await new Promise((r) => setTimeout(r, 1100)); // launches are a second apart per account
  const bad = await create('broken.pdf', '%PDF-1.7\nnot really a pdf');
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.getByRole('link', { name: good.slice(0, 8) }).waitFor();
  await page.getByRole('link', { name: good.slice(0, 8) }).click();
  await page.getByTestId('job-status').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: 120_000 });
  await page.getByRole('heading', { name: 'Nodes' }).waitFor();
  await page.getByTestId('job-files').filter({ hasText: 'Files: 1 done, 0 failed, 0 in progress, of 1' }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'job.png') });
  await page.goto(`${svc.url}/console#/jobs/${bad}`);
  await page.getByTestId('job-status').filter({ hasText: /FAILED|COMPLETED/ }).waitFor({ timeout: 120_000 });
  await page.locator('.failed-error').first().waitFor();
  assert.match(await page.locator('.failed').innerText(), /broken\.pdf/);
  assert.equal(await page.getByTestId('job-files').innerText(), 'Files: 0 done, 1 failed, 0 in progress, of 1');
  await page.screenshot({ path: join(ARTIFACTS, 'failed-file.png') });
  assert.deepEqual(problems, []);
});

test("connectors: the form comes from the type's config schema, a bad value is refused with the API's message at its field, a check shows its result", { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  await page.getByRole('link', { name: 'Sources' }).click();
  await page.getByRole('button', { name: 'New source' }).click();
  const form = page.getByRole('form', { name: 'New source' });
  await form.getByLabel('Name').fill('bucket');
  await form.getByLabel('Type').selectOption('s3');
  await form.getByLabel('remote_url').fill('http://not-a-bucket');
  assert.equal(await form.getByLabel('secret').getAttribute('type'), 'password', 'a credential is a password field');
  await form.getByRole('button', { name: 'Save' }).click();
  const fieldError = form.locator('.field-error');
  await fieldError.first().waitFor();
  assert.match(await fieldError.first().innerText(), /should match pattern/, 'the API\'s pattern message is shown at remote_url');
  await page.screenshot({ path: join(ARTIFACTS, 'connector-form.png') });
  // -- a valid one is created and checked --
  await form.getByLabel('Type').selectOption('local');
  await form.getByLabel('remote_url').fill('inbox');
  await form.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('row', { name: /bucket local/ });
  await row.waitFor();
  await row.getByRole('button', { name: 'Check connection' }).click();
  await row.getByTestId('check-status').filter({ hasText: /SUCCESS|FAILURE/ }).waitFor({ timeout: 60_000 });
  assert.equal(await row.getByTestId('check-status').innerText(), 'SUCCESS');
  assert.deepEqual(problems, []);
});

test('workflows: created in the page, run, its job watched to COMPLETED; notifications: marked read, the badge drops', { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  const api = (path: string, init: RequestInit = {}) => fetch(`${svc.url}${path}`, { ...init, headers: { 'unstructured-api-key': key, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const src = (await (await api('/api/v1/sources/', { method: 'POST', body: JSON.stringify({ name: 'memo-inbox', type: 'local', config: { remote_url: 'inbox' } }) })).json()) as { id: string };
  const dst = (await (await api('/api/v1/destinations/', { method: 'POST', body: JSON.stringify({ name: 'memo-out', type: 'local', config: { remote_url: 'out' } }) })).json()) as { id: string };
  assert.ok(src.id && dst.id);
  await page.getByRole('link', { name: 'Workflows' }).click();
  await page.getByRole('button', { name: 'New workflow' }).click();
  const form = page.getByRole('form', { name: 'New workflow' });
  await form.getByLabel('Name').fill('memos');
  await form.getByLabel('Source').selectOption({ label: 'memo-inbox (local)' });
  await form.getByLabel('Destination').selectOption({ label: 'memo-out (local)' });
  await form.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('row', { name: /memos/ });
  await row.waitFor();
  await row.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('job-status').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: 180_000 });
  await page.screenshot({ path: join(ARTIFACTS, 'workflow-job.png') });
  // -- the job's events reached the inbox: the badge counts them, marking all read clears it --
  await page.getByTestId('unread-badge').waitFor({ timeout: 60_000 });
  await page.getByRole('link', { name: /Notifications/ }).click();
  await page.locator('.inbox li.unread').first().waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'notifications.png') });
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await page.getByTestId('unread-badge').waitFor({ state: 'detached' });
  // the list redraws after the badge: wait for its last unread row to go
  await page.locator('.inbox li.unread').first().waitFor({ state: 'detached' });
  assert.equal(await page.locator('.inbox li.unread').count(), 0);
  assert.deepEqual(problems, []);
});

test('workflows: a custom chain built node by node in the editor is saved as typed settings; the workflow gets a channel of its own', { skip: NO_BROWSER }, async () => {
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  await page.getByRole('link', { name: 'Workflows' }).click();
  await page.getByRole('button', { name: 'New workflow' }).click();
  const form = page.getByRole('form', { name: 'New workflow' });
  await form.getByLabel('Name').fill('chain-made-in-the-editor');
  await form.getByLabel('Type').selectOption('custom');
  // -- only a partition node can start a chain; after it the editor offers what the service allows next --
  assert.deepEqual(await form.locator('.node-chain > .actions button').allInnerTexts(), ['+ partition node']);
  await form.getByRole('button', { name: '+ partition node' }).click();
  const partition = form.getByRole('group', { name: /Node 1/ });
  await partition.getByLabel('Node subtype').selectOption('unstructured_api');
  await partition.getByRole('button', { name: '+ Setting' }).click();
  await partition.getByLabel('Setting name').fill('strategy');
  await partition.getByLabel('Setting name').press('Tab');
  await partition.getByLabel('Value of strategy').fill('fast');
  await partition.getByLabel('Value of strategy').press('Tab');
  await form.getByRole('button', { name: '+ chunk node' }).click();
  const chunk = form.getByRole('group', { name: /Node 2/ });
  await chunk.getByLabel('Node subtype').selectOption('chunk_by_title');
  await chunk.getByRole('button', { name: '+ Setting' }).click();
  await chunk.getByLabel('Setting name').fill('max_characters');
  await chunk.getByLabel('Setting name').press('Tab');
  await chunk.getByLabel('Value of max_characters').fill('500');
  await chunk.getByLabel('Value of max_characters').press('Tab');
  await page.screenshot({ path: join(ARTIFACTS, 'workflow-editor.png') });
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('row', { name: /chain-made-in-the-editor/ }).waitFor();
  const list = (await (await fetch(`${svc.url}/api/v1/workflows/`, { headers: { 'unstructured-api-key': key } })).json()) as { name: string; workflow_nodes: { type: string; subtype: string; settings: Record<string, unknown> }[] }[];
  const saved = list.find((w) => w.name === 'chain-made-in-the-editor')!;
  assert.deepEqual(saved.workflow_nodes.map((n) => [n.type, n.subtype]), [['partition', 'unstructured_api'], ['chunk', 'chunk_by_title']]);
  assert.equal(saved.workflow_nodes[0]!.settings.strategy, 'fast');
  assert.equal(saved.workflow_nodes[1]!.settings.max_characters, 500, 'a number typed in the editor is saved as a number');
  // -- the workflow's own channels: created from its row, listed under the workflow, not the account --
  await page.getByRole('row', { name: /chain-made-in-the-editor/ }).getByRole('button', { name: 'Channels' }).click();
  await page.getByRole('heading', { name: 'Channels of chain-made-in-the-editor' }).waitFor();
  const channelForm = page.getByRole('form', { name: 'New channel' });
  await channelForm.getByLabel('URL (https)').fill('https://hooks.example.com/chain');
  await channelForm.getByRole('button', { name: 'Create channel' }).click();
  await page.locator('li.channel', { hasText: 'https://hooks.example.com/chain' }).waitFor();
  const id = (list.find((w) => w.name === 'chain-made-in-the-editor') as unknown as { id: string }).id;
  const scoped = (await (await fetch(`${svc.url}/api/v1/workflows/${id}/notifications/channels?channel_type=webhook`, { headers: { 'unstructured-api-key': key } })).json()) as { items: { url: string }[] };
  assert.deepEqual(scoped.items.map((c) => c.url), ['https://hooks.example.com/chain']);
  const account = (await (await fetch(`${svc.url}/api/v1/notifications/channels?channel_type=webhook`, { headers: { 'unstructured-api-key': key } })).json()) as { items: { url: string }[] };
  assert.ok(!account.items.some((c) => c.url === 'https://hooks.example.com/chain'), "not one of the account's channels");
  assert.deepEqual(problems, []);
});

test("channels: a webhook channel is created in the page and a test event shows the receiver's answer", { skip: NO_BROWSER }, async () => {
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks from the receiver');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const { page, problems } = await watchedPage(browser);
    await signIn(page);
    await page.getByRole('link', { name: /Notifications/ }).click();
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('URL (https)').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    await form.getByRole('button', { name: 'Create channel' }).click();
    const row = page.locator('li.channel').filter({ hasText: '/hook' });
    await row.waitFor().catch(async (err: Error) => {
      await page.screenshot({ path: join(ARTIFACTS, 'channels-failed.png') });
      throw new Error(`${err.message}\npage: ${await page.locator('main').innerText()}`);
    });
    await row.getByRole('button', { name: 'Send test event' }).click();
    await row.getByRole('status').filter({ hasText: 'Delivered' }).waitFor({ timeout: 30_000 });
    assert.match(await row.getByRole('status').innerText(), /status 200.*thanks from the receiver/s);
    assert.equal(received.length, 1);
    await page.screenshot({ path: join(ARTIFACTS, 'channels.png') });
    assert.deepEqual(problems, []);
  } finally {
    receiver.close();
  }
});

test('channels: an e-mail channel is created, a wrong code refused with the API\'s message, the mailed code verifies it', { skip: NO_BROWSER }, async () => {
  const endpoints = JSON.parse(readFileSync(join(svc.dataDir, 'endpoints.json'), 'utf8')) as { sesv2: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  // -- the local mailbox answers only a request signed with the emulators' credential --
  const mailbox = async () => {
    const headers = sigV4(endpoints.credentials, crypto).sign({ method: 'GET', url: '/store', headers: { host: new URL(endpoints.sesv2).host } }, 'ses', 'us-east-1');
    return ((await (await fetch(`${endpoints.sesv2}/store`, { headers })).json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] }).emails;
  };
  const { page, problems } = await watchedPage(browser);
  await signIn(page);
  await page.getByRole('link', { name: /Notifications/ }).click();
  const form = page.getByRole('form', { name: 'New channel' });
  await form.getByLabel('Type').selectOption('email');
  await form.getByLabel('Recipient e-mail').fill('ops@example.com');
  await form.getByRole('button', { name: 'Create channel' }).click();
  const row = page.locator('li.channel').filter({ hasText: 'ops@example.com' });
  await row.waitFor();
  await row.getByLabel('Code').fill('000000');
  await row.getByRole('button', { name: 'Verify' }).click();
  await row.getByRole('alert').filter({ hasText: /code/i }).waitFor();
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    const mail = (await mailbox()).find((m) => m.destination.to.includes('ops@example.com'));
    code = mail && /code is (\d{6})/.exec(mail.body.text ?? '')?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(code, 'the verification mail reached the mailbox');
  await row.getByLabel('Code').fill(code);
  await row.getByRole('button', { name: 'Verify' }).click();
  await row.getByRole('status').filter({ hasText: 'Verified.' }).waitFor();
  assert.deepEqual(problems.filter((p) => !/\b4\d\d\b/.test(p)), []);
});
