// Pure tests of the outbound policy's address classification (lambdas/net/outbound.ts): every IPv6
// form that carries an IPv4 address is judged by that address, metadata endpoints always refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressProblem, isPrivateAddress, literalHostProblem, literalUrlProblem } from '../../../lambdas/net/outbound';

const DENIED = [
  '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
  '::', '::1', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '2001:db8::1',
  // IPv4-mapped, in dotted and hex forms
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe',
  // IPv4-compatible (deprecated) in dotted and hex forms, whatever the embedded address
  '::127.0.0.1', '::7f00:1', '::169.254.169.254', '::8.8.8.8',
  // SIIT IPv4-translated
  '::ffff:0:127.0.0.1',
  // NAT64 well-known prefix with a private embedded IPv4; the local-use prefix entirely
  '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::808:808', '64:ff9b:1:2::1',
  // 6to4 with a private embedded IPv4; Teredo
  '2002:7f00:1::', '2002:c0a8:101::1', '2002:a9fe:a9fe::', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
];
const ALLOWED = ['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];

test('isPrivateAddress refuses every private form and allows global unicast', () => {
  for (const ip of DENIED) assert.equal(isPrivateAddress(ip), true, ip);
  for (const ip of ALLOWED) assert.equal(isPrivateAddress(ip), false, ip);
  assert.equal(isPrivateAddress('[::1]'), true);
  assert.equal(isPrivateAddress('example.com'), false);
});

test('with the policy on, private addresses have a reason; with it off only metadata endpoints do', () => {
  const saved = process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
  try {
    process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = 'true';
    assert.match(addressProblem('::7f00:1')!, /private network address/);
    assert.equal(addressProblem('8.8.8.8'), undefined);
    delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    assert.equal(addressProblem('127.0.0.1'), undefined);
    for (const ip of ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '169.254.170.2']) assert.match(addressProblem(ip)!, /metadata/, ip);
    assert.match(literalHostProblem('metadata.google.internal')!, /metadata/);
    assert.match(literalUrlProblem('http://169.254.169.254/latest/meta-data/')!, /metadata/);
    assert.equal(literalUrlProblem('https://api.openai.com/v1'), undefined);
  } finally {
    if (saved === undefined) delete process.env.CONNECTORS_DENY_PRIVATE_NETWORKS;
    else process.env.CONNECTORS_DENY_PRIVATE_NETWORKS = saved;
  }
});
