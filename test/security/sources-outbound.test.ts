// Finding (issue 10, sources): the google_drive, slack and zendesk sources talk HTTP through their
// clients (gaxios for Drive and its token exchange, the Slack client's fetch, Zendesk's fetch). The
// early check of the endpoint name is not enough (the name may resolve elsewhere at connect time):
// every connection of the clients themselves must go through the outbound policy. Played with
// CONNECTORS_DENY_PRIVATE_NETWORKS=true: clients built while the name was allowed, used once it is
// refused, against stand-ins on loopback reached by the name `localhost`: nothing may arrive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeServiceAccount } from '../../lambdas/connectors/gcs/test-server';
import { driveClient } from '../../lambdas/connectors/google-drive/client';
import { startDriveStandIn, type DriveStandIn } from '../../lambdas/connectors/google-drive/test-server';
import { slackClient } from '../../lambdas/connectors/slack/index';
import { startSlackStandIn, type SlackStandIn } from '../../lambdas/connectors/slack/test-server';
import { zendeskGet } from '../../lambdas/connectors/zendesk/index';
import { startZendeskStandIn, type ZendeskStandIn } from '../../lambdas/connectors/zendesk/test-server';

const sa = makeServiceAccount('sec@test-project.iam.gserviceaccount.com');
let drive: DriveStandIn;
let slack: SlackStandIn;
let zd: ZendeskStandIn;
const saved: Record<string, string | undefined> = {};
const KEYS = ['CONNECTORS_DENY_PRIVATE_NETWORKS', 'GOOGLE_DRIVE_API_ENDPOINT', 'GOOGLE_OAUTH_TOKEN_URL', 'SLACK_API_URL'];

before(async () => {
  drive = await startDriveStandIn({ accounts: [sa] });
  drive.folder('f1', 'F');
  slack = await startSlackStandIn();
  zd = await startZendeskStandIn({ email: 'a@example.com', apiToken: 't' });
  for (const k of KEYS) saved[k] = process.env[k];
  process.env.GOOGLE_DRIVE_API_ENDPOINT = `http://localhost:${drive.port}/`;
  process.env.GOOGLE_OAUTH_TOKEN_URL = `http://localhost:${drive.port}/token`;
  process.env.SLACK_API_URL = `http://localhost:${slack.port}/api/`;
});
after(async () => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await drive?.stop();
  await slack?.stop();
  await zd?.stop();
});

test('google_drive: the API calls and the token exchange of a built client are refused at connect time', async () => {
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'false';
  const withKey = await driveClient({ service_account_key: sa.keyJson });
  const withToken = await driveClient({ oauth_token: drive.userToken });
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const before = drive.calls.length;
  await assert.rejects(withKey.files.get({ fileId: 'f1' }), /host localhost resolves to a private network address/);
  await assert.rejects(withToken.files.get({ fileId: 'f1' }), /host localhost resolves to a private network address/);
  assert.equal(drive.calls.length, before, 'neither the token endpoint nor the API was reached');
});

test('slack: a built client\'s calls are refused at connect time', async () => {
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'false';
  const web = await slackClient(slack.botToken);
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const before = slack.calls.length;
  await assert.rejects(web.apiCall('auth.test', {}), (err: any) => /private network address/.test(String(err?.original?.cause?.message ?? err?.original?.message ?? err?.message)));
  assert.equal(slack.calls.length, before);
});

test('zendesk: a call to a name resolving to loopback is refused at connect time', async () => {
  process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
  const before = zd.calls.length;
  await assert.rejects(
    zendeskGet({ subdomain: 'acme', email: 'a@example.com', api_token: 't' }, `http://localhost:${zd.port}/api/v2/groups.json`),
    (err: any) => /private network address/.test(String(err?.cause?.message ?? err?.message)),
  );
  assert.equal(zd.calls.length, before);
});
