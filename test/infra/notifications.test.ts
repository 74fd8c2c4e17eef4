// SES identity (issue 12): a deployment that names a from-address or domain gets the SES identity
// and a configuration set recording bounces and complaints (SNS), its senders send with that set,
// and every sender may send only as the configured from-address (ses:FromAddress condition).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../../lambdas/routes';
import { routeAccess } from '../../lib/api';
import { consumerAccess } from '../../lib/queues';
import { DEFAULT_FROM_ADDRESS } from '../../lib/notifications';
import { logicalIdOf, synthStack } from './synth';

type Res = { Type: string; Properties: Record<string, any> };
const withDomain = synthStack({ notificationFromDomain: 'mail.example.com', notificationFromAddress: 'alerts@mail.example.com' });
const json = withDomain.template.toJSON() as { Resources: Record<string, Res>; Outputs: Record<string, any> };
const of = (type: string) => Object.entries(json.Resources).filter(([, r]) => r.Type === type);

/** The functions that send e-mail: channel routes and the channel-delivery consumer. */
function senders(s: typeof withDomain.stack): string[] {
  return [
    ...s.api.routeFunctions.filter(({ route }) => routeAccess(route).email).map(({ fn }) => logicalIdOf(fn)),
    ...s.queues.queues.filter((q) => consumerAccess(q.definition).email).map((q) => logicalIdOf(q.consumer)),
  ];
}
function sesStatements(j: { Resources: Record<string, Res> }, fnId: string) {
  const roleId = j.Resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
  return Object.values(j.Resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement)
    .filter((st: any) => [st.Action].flat().some((a: string) => a.startsWith('ses:')));
}

test('a from-domain: the domain identity, with the configuration set, and its DKIM records as outputs', () => {
  const identities = of('AWS::SES::EmailIdentity');
  assert.equal(identities.length, 1);
  const identity = identities[0]![1].Properties;
  assert.equal(identity.EmailIdentity, 'mail.example.com');
  const [[setId, set]] = of('AWS::SES::ConfigurationSet') as [[string, Res]];
  assert.equal(set.Properties.Name, 'TestStack-notifications');
  assert.deepEqual(identity.ConfigurationSetAttributes, { ConfigurationSetName: { Ref: setId } });
  const dkim = Object.entries(json.Outputs).filter(([k]) => k.includes('DkimRecord'));
  assert.equal(dkim.length, 3, 'three DKIM CNAME records to publish');
});

test('the configuration set records bounces and complaints to an SNS topic', () => {
  const [[setId]] = of('AWS::SES::ConfigurationSet') as [[string, Res]];
  const [[, dest]] = of('AWS::SES::ConfigurationSetEventDestination') as [[string, Res]];
  assert.deepEqual(dest.Properties.ConfigurationSetName, { Ref: setId });
  const d = dest.Properties.EventDestination;
  assert.equal(d.Enabled, true);
  for (const e of ['bounce', 'complaint', 'reject']) assert.ok(d.MatchingEventTypes.includes(e), `${e} recorded`);
  const topicId = d.SnsDestination.TopicARN.Ref as string;
  assert.equal(json.Resources[topicId]!.Type, 'AWS::SNS::Topic');
});

test('senders: SES_CONFIGURATION_SET and SES_FROM_ADDRESS set, SendEmail only as the from-address', () => {
  const ids = senders(withDomain.stack);
  assert.ok(ids.length >= 2, 'channel routes and the delivery consumer send mail');
  for (const id of ids) {
    const env = json.Resources[id]!.Properties.Environment.Variables;
    assert.equal(env.SES_FROM_ADDRESS, 'alerts@mail.example.com', id);
    assert.equal(env.SES_CONFIGURATION_SET, 'TestStack-notifications', id);
    const statements = sesStatements(json, id);
    assert.equal(statements.length, 1, id);
    assert.deepEqual(statements[0].Condition, { StringEquals: { 'ses:FromAddress': 'alerts@mail.example.com' } }, id);
  }
  // nothing else sends mail
  const all = Object.entries(json.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function').map(([id]) => id);
  for (const id of all.filter((x) => !ids.includes(x))) assert.equal(sesStatements(json, id).length, 0, `${id} sends no mail`);
  assert.ok(ROUTES.some((r) => routeAccess(r).email));
});

test('no from-address: no identity is created; senders still send only as the default address, without a set', () => {
  const plain = synthStack({});
  const j = plain.template.toJSON() as { Resources: Record<string, Res> };
  assert.equal(Object.values(j.Resources).filter((r) => r.Type.startsWith('AWS::SES::')).length, 0);
  for (const id of senders(plain.stack)) {
    const env = j.Resources[id]!.Properties.Environment.Variables;
    assert.equal(env.SES_FROM_ADDRESS, DEFAULT_FROM_ADDRESS, id);
    assert.equal(env.SES_CONFIGURATION_SET, undefined, id);
    assert.deepEqual(sesStatements(j, id)[0].Condition, { StringEquals: { 'ses:FromAddress': DEFAULT_FROM_ADDRESS } }, id);
  }
});

test('an address identity alone; an address outside the domain is refused at synth', () => {
  assert.throws(() => synthStack({ notificationFromDomain: 'mail.example.com', notificationFromAddress: 'a@other.example.com' }), /not in the domain/);
  assert.throws(() => synthStack({ notificationFromAddress: 'not-an-address' }), /not an e-mail address/);
});
