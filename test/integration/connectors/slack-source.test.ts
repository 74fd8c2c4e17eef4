// Slack source through the registry and the official client (@slack/web-api), against the Web API
// stand-in (pages of 2 messages): one document per channel and UTC day, conversations.history paged
// to the end, start/end dates, the platform's XML with thread replies, version bumped by an edit or
// a reply, data_source, 429 + Retry-After retried (bounded), check with Slack's error codes, the
// outbound policy.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFails, envScope, issuesWith, restoreAfter, withEnv } from '../../support/connector-tests';
import { createHash } from 'node:crypto';
import { checkConnection, listSourceObjects, readSourceObject, validateConfig, outputConfig } from '../../../lambdas/connectors/registry';
import { startSlackStandIn, type SlackMessage, type SlackStandIn } from '../../../lambdas/connectors/slack/test-server';
import { collect, untext } from './helpers';

let slack: SlackStandIn;
const env = envScope(['SLACK_API_URL']);
const config = (over: Record<string, unknown> = {}) => validateConfig('source', 'slack', { token: slack.botToken, channels: ['C0GENERAL'], ...over });
const day1 = (h: number, m = 0) => new Date(Date.UTC(2026, 10, 20, h, m));
const day2 = (h: number, m = 0) => new Date(Date.UTC(2026, 10, 21, h, m));
let root: SlackMessage;
const history = () => slack.calls.filter((c) => c.method === 'conversations.history' && c.params.get('limit') !== '1');

before(async () => {
  slack = await startSlackStandIn({ pageSize: 2 });
  slack.channel('C0GENERAL', 'general');
  slack.channel('C0SECRET', 'secret', { isPrivate: true });
  slack.channel('C0OLD', 'old', { archived: true });
  root = slack.post('C0GENERAL', day1(9), 'Release <v2> is out & ready');
  slack.reply('C0GENERAL', root.ts, day2(8), 'great news');
  slack.reply('C0GENERAL', root.ts, day2(9), 'thanks');
  slack.post('C0GENERAL', day1(10), 'lunch?');
  slack.post('C0GENERAL', day1(11), 'standup notes');
  slack.post('C0GENERAL', day2(10), 'second day');
  slack.post('C0GENERAL', day2(12), 'second day again');
  env.set({ SLACK_API_URL: slack.url });
});
restoreAfter(env, () => slack);

test('config: free-form, the token masked; channels and dates checked for type', () => {
  assert.equal(outputConfig('source', 'slack', config()).token, '**********');
  const issues = issuesWith(config);
  assert.match(issues({ channels: 'C0GENERAL' }), /body\.config\.channels: channels must be a list of Slack channel ids/);
  assert.match(issues({ start_date: 'yesterday' }), /body\.config\.start_date: start_date must be a date/);
  assert.equal(issues({ start_date: '2026-11-20', end_date: '2026-11-21T10:30:00+01:00' }), '');
});

test('list: one document per channel and day, history paged to the end, version and data_source as the platform', async () => {
  const before = history().length;
  const objs = await collect(listSourceObjects('slack', config()));
  assert.deepEqual(objs.map((o) => o.key), ['C0GENERAL-2026-11-21', 'C0GENERAL-2026-11-20'], 'newest day first');
  const calls = history().slice(before);
  assert.ok(calls.length >= 3, `history read in ${calls.length} pages`);
  assert.ok(calls.slice(1).every((c) => c.params.get('cursor')));
  assert.ok(calls.every((c) => c.token === slack.botToken));
  assert.ok(slack.calls.some((c) => c.method === 'conversations.join' && c.params.get('channel') === 'C0GENERAL'), 'the bot joined the public channel');

  const d1 = objs[1]!;
  assert.equal(d1.filename, `${createHash('sha256').update('C0GENERAL-2026-11-20').digest('hex').slice(0, 16)}.xml`);
  // the newest activity of day 1 is the reply of day 2 to its thread (latest_reply)
  const reply2 = root.latest_reply!;
  assert.equal(d1.version, reply2);
  const oldest = root.ts;
  assert.deepEqual(d1.dataSource, {
    url: `https://test-team.slack.com/archives/C0GENERAL/p${oldest.replace('.', '')}`,
    version: reply2,
    date_modified: reply2,
    date_created: oldest,
    record_locator: { channel: 'C0GENERAL', day: '2026-11-20', oldest, latest: d1.dataSource!.record_locator!.latest },
  });
});

test('read: the platform\'s XML of the day, threads with their replies; an edit bumps the version', async () => {
  const xml = untext(await readSourceObject('slack', config(), 'C0GENERAL-2026-11-20'));
  assert.equal(
    xml,
    "<?xml version='1.0' encoding='utf-8'?>\n<messages><message><text>standup notes</text></message><message><text>lunch?</text></message>" +
      '<message><text>Release &lt;v2&gt; is out &amp; ready &lt;reply&gt; great news &lt;reply&gt; thanks</text></message></messages>',
  );
  assert.ok(slack.calls.some((c) => c.method === 'conversations.replies' && c.params.get('ts') === root.ts && c.params.get('cursor')), 'replies paged');
  const v1 = (await collect(listSourceObjects('slack', config()))).find((o) => o.key === 'C0GENERAL-2026-11-21')!.version;
  const msgs = untext(await readSourceObject('slack', config(), 'C0GENERAL-2026-11-21'));
  assert.match(msgs, /second day again.*second day</);
  const second = (await collect(listSourceObjects('slack', config())))[0]!;
  slack.edit('C0GENERAL', second.dataSource!.record_locator!.oldest as string, 'second day (edited)', day2(13));
  const after = (await collect(listSourceObjects('slack', config()))).find((o) => o.key === 'C0GENERAL-2026-11-21')!;
  assert.notEqual(after.version, v1);
  assert.match(untext(await readSourceObject('slack', config(), 'C0GENERAL-2026-11-21')), /second day \(edited\)/);
});

test('start_date / end_date bound the history', async () => {
  const objs = await collect(listSourceObjects('slack', config({ start_date: '2026-11-21' })));
  assert.deepEqual(objs.map((o) => o.key), ['C0GENERAL-2026-11-21']);
  const early = await collect(listSourceObjects('slack', config({ end_date: '2026-11-20T10:30:00Z' })));
  assert.deepEqual(early.map((o) => o.key), ['C0GENERAL-2026-11-20']);
  const xml = untext(await readSourceObject('slack', config({ end_date: '2026-11-20T10:30:00Z' }), 'C0GENERAL-2026-11-20'));
  assert.ok(!xml.includes('standup notes') && xml.includes('lunch?'));
});

test('throttling: a 429 with Retry-After is waited for and retried, within a bound', async () => {
  const limited = { status: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } };
  slack.fail({ ...limited, match: (c) => c.method === 'conversations.history' && Boolean(c.params.get('cursor')) });
  const started = Date.now();
  assert.equal((await collect(listSourceObjects('slack', config()))).length, 2);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  slack.fail({ ...limited, match: (c) => c.method === 'conversations.replies', times: 10 });
  await assert.rejects(readSourceObject('slack', config(), 'C0GENERAL-2026-11-20'), /^Error: Slack conversations\.replies C0GENERAL thread .* still rate limited after retries \(retry-after 1s\)$/);
  assert.equal(slack.calls.filter((c) => c.method === 'conversations.replies' && c.status === 429).length, 5, 'five attempts, then the file fails');
});

test('check: auth.test and the channels, with Slack\'s error codes, never the token', async () => {
  const ok = await checkConnection('source', 'slack', config());
  assert.equal(ok.status, 'SUCCESS', ok.reason);
  assert.equal(ok.reason, 'authenticated as wf-bot in Test Team; 1 channel(s) readable');
  const user = await checkConnection('source', 'slack', config({ token: slack.userToken }));
  assert.equal(user.status, 'SUCCESS', user.reason);
  const cases: [Record<string, unknown>, string][] = [
    [{ token: 'xoxb-revoked-123' }, 'Slack authentication failed: invalid_auth'],
    [{ channels: ['C0GENERAL', 'C0SECRET', 'C0NOPE', 'C0OLD'] }, 'Cannot access 3 channel(s) with the bot token: C0SECRET: channel_not_found; C0NOPE: channel_not_found; C0OLD: is_archived'],
    [{ token: slack.userToken, channels: ['C0SECRET'] }, 'Cannot access 1 channel(s) with the user token: C0SECRET: channel_not_found'],
    [{ channels: [] }, 'channels is required: the ids of the channels to read'],
  ];
  for (const [over, reason] of cases) {
    const r = await checkConnection('source', 'slack', config(over));
    assert.equal(r.status, 'FAILURE');
    assert.equal(r.reason, reason);
    assert.ok(!r.reason!.includes(slack.botToken) && !r.reason!.includes('xoxb-revoked-123'));
  }
  await assert.rejects(readSourceObject('slack', config({ channels: ['C0SECRET'] }), 'C0SECRET-2026-11-20'), { message: 'Slack conversations.history C0SECRET failed: channel_not_found' });
});

test('outbound policy: an API URL resolving to loopback is refused; nothing arrives', async () => {
  await withEnv({ CONNECTORS_DENY_PRIVATE_NETWORKS: 'true', SLACK_API_URL: `http://localhost:${slack.port}/api/` }, async () => {
    const before = slack.calls.length;
    await checkFails('source', 'slack', config(), /^Slack connect refused: host localhost resolves to a private network address/);
    await assert.rejects(collect(listSourceObjects('slack', config())), /private network address/);
    await assert.rejects(readSourceObject('slack', config(), 'C0GENERAL-2026-11-20'), /private network address/);
    assert.equal(slack.calls.length, before);
  });
});
