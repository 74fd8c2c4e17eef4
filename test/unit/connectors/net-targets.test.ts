// Pure tests of how data-driven connector checks find the host to probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTarget } from '../../../lambdas/connectors/net-check';
import { isPrivateAddress } from '../../../lambdas/net/outbound';
import { targetOf } from '../../../lambdas/connectors/types/derived';

test('parseTarget reads scheme defaults, explicit ports, userinfo and bare hosts', () => {
  assert.deepEqual(parseTarget('https://example.com/path', 'url'), { host: 'example.com', port: 443, field: 'url' });
  assert.deepEqual(parseTarget('mongodb+srv://u:p@cluster.example.net/db', 'uri'), { host: 'cluster.example.net', port: 27017, field: 'uri' });
  assert.deepEqual(parseTarget('neo4j+s://db.example:7777', 'uri'), { host: 'db.example', port: 7777, field: 'uri' });
  assert.deepEqual(parseTarget('broker.example:9093', 'bootstrap_servers'), { host: 'broker.example', port: 9093, field: 'bootstrap_servers' });
  assert.deepEqual(parseTarget('db.internal', 'host', 5432), { host: 'db.internal', port: 5432, field: 'host' });
  assert.deepEqual(parseTarget('http://[::1]:8080', 'url'), { host: '::1', port: 8080, field: 'url' });
  assert.equal(parseTarget('  ', 'x'), undefined);
});

test('targetOf picks the field each type uses', () => {
  assert.deepEqual(targetOf('postgres', { host: 'pg', port: 6543 }), { host: 'pg', port: 6543, field: 'host' });
  assert.deepEqual(targetOf('postgres', { host: 'pg' }), { host: 'pg', port: 5432, field: 'host' });
  assert.deepEqual(targetOf('teradata', { host: 'td', dbs_port: 1025 }), { host: 'td', port: 1025, field: 'host' });
  assert.deepEqual(targetOf('kafka-cloud', { bootstrap_servers: 'a.example,b.example', port: 9092 }), { host: 'a.example', port: 9092, field: 'bootstrap_servers' });
  assert.deepEqual(targetOf('zendesk', { subdomain: 'acme' }), { host: 'acme.zendesk.com', port: 443, field: 'subdomain' });
  assert.deepEqual(targetOf('elasticsearch', { hosts: ['http://es:9201'] }), { host: 'es', port: 9201, field: 'hosts' });
  assert.deepEqual(targetOf('elasticsearch', { hosts: ['es'] }), { host: 'es', port: 9200, field: 'hosts' });
  assert.deepEqual(targetOf('redis', { uri: 'rediss://cache:6380', host: 'ignored' }), { host: 'cache', port: 6380, field: 'uri' });
  assert.deepEqual(targetOf('weaviate-cloud', { cluster_url: 'https://w.example' }), { host: 'w.example', port: 443, field: 'cluster_url' });
  assert.deepEqual(targetOf('pinecone', { api_key: 'k' }), { host: 'api.pinecone.io', port: 443, field: 'type' });
  assert.deepEqual(targetOf('delta_table', { aws_region: 'eu-west-1' }), { host: 's3.eu-west-1.amazonaws.com', port: 443, field: 'aws_region' });
  assert.equal(targetOf('jira', {}), undefined);
});

test('isPrivateAddress covers loopback, private, link-local, CGNAT, unique-local and mapped addresses', () => {
  for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of ['8.8.8.8', '172.32.0.1', '52.95.110.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});
