// Pure parts of the salesforce source: the documents it makes of a record must be the platform's,
// byte for byte. The expected files were written by the platform's own _xml_for_record and
// _eml_for_record (fixtures/salesforce/generate.py); campaign.json is the record behind the
// platform's e2e expected output (Campaign/701Hu000001eX9EIAU, filesize_bytes 1410).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { emlForRecord, formatdate, parseSalesforceJson, pyFloat, xmlForRecord, type SfRecord } from '../../../lambdas/connectors/salesforce/documents';

const dir = join(import.meta.dirname, 'fixtures', 'salesforce');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');
const record = (name: string) => parseSalesforceJson(fixture(name)) as SfRecord;

test('xml: the platform\'s e2e Campaign record gives the platform\'s document (1410 bytes, floats as Python prints them)', () => {
  const xml = xmlForRecord(record('campaign.json'));
  assert.equal(xml, fixture('campaign.xml'));
  assert.equal(Buffer.byteLength(xml), 1410);
  assert.match(xml, /<item>ExpectedRevenue: 3000000\.0<\/item>.*<item>NumberOfLeads: 0<\/item>/);
});

test('xml: nested objects flattened with dots, escaping, unicode, lists as Python reprs, exponent floats, empty objects', () => {
  assert.equal(xmlForRecord(record('account.json')), fixture('account.xml'));
  assert.equal(xmlForRecord({}), "<?xml version='1.0' encoding='utf-8'?>\n<root />");
});

test('eml: the platform\'s template with a blank line after each header block, formatdate of MessageDate, whitespace-only lines emptied as dedent does', async () => {
  const eml = emlForRecord(record('email.json'));
  // The platform's bytes, but for the blank lines that end the headers of the message and of each part.
  const separated = fixture('email.eml').replace(/^(Content-Type: [^\n]*)\n/gm, '$1\n\n');
  assert.equal(eml, separated);
  assert.equal(eml.replace(/^(Content-Type: [^\n]*)\n\n/gm, '$1\n'), fixture('email.eml'));
  // What the .eml partitioner (mailparser) reads of it: both bodies.
  const parsed = await simpleParser(Buffer.from(eml));
  assert.equal(parsed.text, 'Jane.\n\nThis is a test of sending you an email from Salesforce!\n\n_____________________________________________________________________\nPowered by Salesforce\nhttp://www.salesforce.com/');
  assert.match(String(parsed.html), /<p>This is a test &amp; more<\/p>/);
  assert.equal(parsed.subject, 'Test of email 1');
  assert.throws(() => emlForRecord({ Id: '02s000000000001AAA', MessageDate: null }), /EmailMessage 02s000000000001AAA has no readable MessageDate \(None\)/);
});

test('pyFloat and formatdate follow Python\'s repr and email.utils', () => {
  const cases: [string, string][] = [['3000000.0', '3000000.0'], ['0.0001', '0.0001'], ['0.00001', '1e-05'], ['1e16', '1e+16'], ['1234567890123456.0', '1234567890123456.0'], ['-0.0', '-0.0'], ['1E+3', '1000.0'], ['123.456e-10', '1.23456e-08']];
  for (const [lexeme, py] of cases) assert.equal(pyFloat(lexeme), py, lexeme);
  assert.equal(formatdate(Date.UTC(2024, 1, 29, 3, 4, 5, 999)), 'Thu, 29 Feb 2024 03:04:05 -0000');
});
