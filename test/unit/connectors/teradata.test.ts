// Pure parts of the teradata family: where a `host` sends Query Service requests, quoted names, the
// platform's table and row shapes, and the statements the source sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identifierProblem, serviceBase, tableSql } from '../../../lambdas/connectors/teradata/client';
import { createTableStatement, flatRow, jsonRow } from '../../../lambdas/connectors/teradata/writer';
import { listStatement, readStatement } from '../../../lambdas/connectors/teradata/source';
import { enhancedElementId } from '../../../lambdas/connectors/records/ids';
import { resetConfig } from '../../../lambdas/config';

test('serviceBase: a bare host is https://host:TERADATA_QUERY_SERVICE_PORT (default 1443); a URL is used as is', () => {
  const saved = process.env.TERADATA_QUERY_SERVICE_PORT;
  try {
    delete process.env.TERADATA_QUERY_SERVICE_PORT;
    resetConfig();
    assert.equal(serviceBase('td.example.com'), 'https://td.example.com:1443');
    assert.equal(serviceBase(' [fd00::1] '), 'https://[fd00::1]:1443');
    assert.equal(serviceBase('https://qs.example.com:9443/api/query/'), 'https://qs.example.com:9443/api/query');
    assert.equal(serviceBase('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
    process.env.TERADATA_QUERY_SERVICE_PORT = '2443';
    resetConfig();
    assert.equal(serviceBase('td'), 'https://td:2443');
    for (const bad of ['td example', 'td/x', 'ftp://td', '']) assert.throws(() => serviceBase(bad), bad);
  } finally {
    if (saved === undefined) delete process.env.TERADATA_QUERY_SERVICE_PORT;
    else process.env.TERADATA_QUERY_SERVICE_PORT = saved;
    resetConfig();
  }
});

test('names: always double-quoted (reserved words such as "type" and "year"), qualified by database; quotes refused', () => {
  const c = { host: 'h', user: 'u', password: 'p' };
  assert.equal(tableSql(c, 'year'), '"year"');
  assert.equal(tableSql({ ...c, database: 'Sales DB' }, 'year'), '"Sales DB"."year"');
  assert.equal(identifierProblem('a"b', 'table_name'), 'table_name must not contain a double quote');
  assert.equal(identifierProblem(' ', 'id_column'), 'id_column must not be empty');
  assert.equal(identifierProblem('x'.repeat(129), 'database'), 'database is longer than 128 characters');
  assert.equal(identifierProblem('type', 'id_column'), undefined);
  const src = { ...c, database: 'd', table_name: 'year', id_column: 'type', batch_size: 100 };
  const shape = { id: { name: 'Type' }, select: '*' };
  assert.equal(listStatement(src, shape, true), 'SELECT TOP 100 * FROM "d"."year" ORDER BY "Type"');
  assert.equal(listStatement(src, shape, false), 'SELECT TOP 100 * FROM "d"."year" WHERE "Type" > ? ORDER BY "Type"');
  assert.equal(readStatement(src, { id: { name: 'Type' }, select: '"Type", "text"' }), 'SELECT "Type", "text" FROM "d"."year" WHERE "Type" = ?');
});

test('the platform\'s table and rows: metadata as JSON, embeddings as comma-separated floats for VECTOR32, flattened rows with lists as JSON', () => {
  assert.equal(
    createTableStatement({ host: 'h', user: 'u', password: 'p', table_name: 'elements', batch_size: 50 }),
    'CREATE MULTISET TABLE "elements" ("id" VARCHAR(256) NOT NULL, "record_id" VARCHAR(1024) NOT NULL, "element_id" VARCHAR(256) NOT NULL, "text" CLOB CHARACTER SET UNICODE, "type" VARCHAR(256), "embeddings" VECTOR32, "metadata" JSON) PRIMARY INDEX ("id")',
  );
  const e = { type: 'Title', element_id: 'e1', text: 'Hi', metadata: { languages: ['eng'], page_number: 2, data_source: { url: 's3://b/k', record_locator: { k: 1 } } }, embeddings: [0.5, -1, 1e-7] };
  assert.deepEqual(jsonRow(e, 'rec'), {
    id: enhancedElementId('e1', 'rec'), record_id: 'rec', element_id: 'e1', text: 'Hi', type: 'Title', embeddings: '0.5,-1,1e-7',
    metadata: JSON.stringify(e.metadata),
  });
  assert.equal(jsonRow({ ...e, embeddings: undefined }, 'rec').embeddings, null);
  const flat = flatRow(e, 'rec');
  assert.equal(flat.embeddings, '0.5,-1,1e-7');
  assert.equal(flat.languages, '["eng"]');
  assert.equal(flat.page_number, '2');
  assert.equal(flat.url, 's3://b/k');
  assert.equal(flat.record_locator, '{"k":1}');
  assert.equal(flat.record_id, 'rec');
});
