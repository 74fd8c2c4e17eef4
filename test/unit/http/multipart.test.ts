// Multipart parsing of client bodies: a malformed part is the client's 4xx at its place, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMultipart } from '../../../lambdas/http/multipart';
import { ValidationError } from '../../../lambdas/errors';

const BOUNDARY = 'XyZ';
const CT = `multipart/form-data; boundary=${BOUNDARY}`;
const LIMITS = { maxFiles: 2, maxFileBytes: 1000, fileFields: ['files'] };

function body(parts: { disposition: string; content: string; type?: string }[]): Buffer {
  const lines = parts.flatMap((p) => [`--${BOUNDARY}`, `Content-Disposition: ${p.disposition}`, ...(p.type ? [`Content-Type: ${p.type}`] : []), '', p.content]);
  return Buffer.from([...lines, `--${BOUNDARY}--`, ''].join('\r\n'));
}

for (const [label, disposition] of [
  ['a field without name', 'form-data'],
  ['a field with name=""', 'form-data; name=""'],
  ['a file without name', 'form-data; filename="a.txt"'],
  ['a file with name=""', 'form-data; name=""; filename="a.txt"'],
] as const) {
  test(`${label} is a 422 at body, not a TypeError`, async () => {
    const b = body([{ disposition: 'form-data; name="strategy"', content: 'fast' }, { disposition, content: 'hello', type: 'text/plain' }]);
    await assert.rejects(parseMultipart(b, CT, LIMITS), (err: unknown) => {
      assert.ok(err instanceof ValidationError, `got ${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`);
      assert.deepEqual(err.issues[0]!.loc, ['body']);
      assert.match(err.issues[0]!.msg, /has no name/);
      return true;
    });
  });
}

test('named fields and files still parse', async () => {
  const b = body([
    { disposition: 'form-data; name="strategy"', content: 'fast' },
    { disposition: 'form-data; name="files"; filename="a.txt"', content: 'hello', type: 'text/plain' },
  ]);
  const form = await parseMultipart(b, CT, LIMITS);
  assert.deepEqual(form.fields, { strategy: ['fast'] });
  assert.equal(form.files.length, 1);
  assert.equal(form.files[0]!.data.toString(), 'hello');
});
