// dynalite's UpdateExpression, ProjectionExpression and condition parses reused per shape
// (local/emulators/dynalite-parse-templates.ts): for every expression below, the patched parser
// answers exactly what dynalite's own parser answers
// (the parse, its errors, and the placeholders struck from the unused lists), call after call with
// other names and values; and it falls back to a real parse where a stand-in could not tell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { cacheParsesByShape } from '../../../local/emulators/dynalite-parse-templates';
import { buildUpdate } from '../../../lambdas/adapters/dynamo-store';
import type { UpdateSpec } from '../../../lambdas/domain/ports';

const require = createRequire(import.meta.url);
const dynaliteRequire = createRequire(require.resolve('dynalite'));
type Parser = Parameters<typeof cacheParsesByShape>[0];
const updateParser = dynaliteRequire('./db/updateParser') as Parser;
const projectionParser = dynaliteRequire('./db/projectionParser') as Parser;
const conditionParser = dynaliteRequire('./db/conditionParser') as Parser;
const dynaliteDb = dynaliteRequire('./db') as { compare: (op: string, a: unknown, b: unknown) => boolean };
const isReserved = (name: string) => ['SET', 'NAME', 'VALUE', 'DATA', 'COUNT'].includes(name.toUpperCase());

type Names = Record<string, string>;
type Vals = Record<string, Record<string, unknown>>;

/** What a parser gives for this expression: its answer and the unused lists it leaves. */
function run(parser: Parser, expr: string, names: Names, vals: Vals) {
  const context = {
    compare: dynaliteDb.compare,
    attrNames: names,
    attrVals: vals,
    unusedAttrNames: { ...names },
    unusedAttrVals: { ...vals },
    isReserved,
  };
  let out: unknown;
  try {
    out = parser.parse(expr, { context });
  } catch (err) {
    out = `threw ${(err as Error).name}: ${(err as Error).message}`;
  }
  return { out: JSON.parse(JSON.stringify(out ?? null)), unusedNames: Object.keys(context.unusedAttrNames).sort(), unusedVals: Object.keys(context.unusedAttrVals).sort() };
}

function patched(parser: Parser = updateParser, opts?: Parameters<typeof cacheParsesByShape>[1]): Parser {
  const p: Parser = { parse: parser.parse.bind(parser) };
  cacheParsesByShape(p, opts);
  return p;
}

/** The condition parser as the dynalite thread patches it (dynamodb.ts). */
const CONDITION_OPTS = { parseAsIs: /between|attribute_type/i };

/** The DynamoDB JSON of a document-client value (the store's updates bind plain values). */
const av = (v: unknown): Record<string, unknown> =>
  typeof v === 'string' ? { S: v } : typeof v === 'number' ? { N: String(v) } : typeof v === 'boolean' ? { BOOL: v } : Array.isArray(v) ? { L: v.map(av) } : v === null ? { NULL: true } : { M: Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, av(x)])) };

test('the store\'s own updates: a read mark claim, an intent, a settle, a counter, a plain SET, call after call with other names and values', () => {
  const p = patched();
  const ids = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `r_${seed}-${i}`);
  const specs = (seed: number): UpdateSpec[] => [
    { set: { entity: 'ReadMarks' }, setIfAbsent: Object.fromEntries(ids(40, seed).map((id) => [id, `tok${seed}`])), upsert: true },
    { set: { entity: 'UnreadCounter', updatedAt: `2026-11-29T0${seed}:00:00Z`, [`pend_${seed}`]: { ids: ids(3, seed), at: seed } }, upsert: true },
    { add: { unread: -seed }, remove: [`pend_${seed}`] },
    { add: { count: 1, bytes: seed * 10 }, set: { status: seed % 2 ? 'RUNNING' : 'DONE', note: null } },
    { set: { name: `n${seed}`, tags: ['a', 'b'], flag: true }, remove: ['old'] },
  ];
  for (let seed = 1; seed <= 4; seed++) {
    for (const spec of specs(seed)) {
      const u = buildUpdate(spec);
      const vals = Object.fromEntries(Object.entries(u.ExpressionAttributeValues ?? {}).map(([k, v]) => [k, av(v)]));
      assert.deepEqual(run(p, u.UpdateExpression, u.ExpressionAttributeNames, vals), run(updateParser, u.UpdateExpression, u.ExpressionAttributeNames, vals), `${u.UpdateExpression.slice(0, 60)} (call ${seed})`);
    }
  }
});

test('errors and edge cases answer as the parser does, on the first call and on later ones', () => {
  const p = patched();
  const cases: [string, Names, Vals][] = [
    // two placeholders on one attribute overlap (the stand-ins are distinct: a real parse tells)
    ['SET #a = :v, #b = :w', { '#a': 'x', '#b': 'x' }, { ':v': { S: '1' }, ':w': { S: '2' } }],
    ['SET #a = :v, #b = :w', { '#a': 'x', '#b': 'y' }, { ':v': { S: '1' }, ':w': { S: '2' } }],
    // a literal name beside a placeholder that names the same attribute
    ['SET x = :v, #b = :w', { '#b': 'x' }, { ':v': { S: '1' }, ':w': { S: '2' } }],
    ['SET x = :v, #b = :w', { '#b': 'y' }, { ':v': { S: '1' }, ':w': { S: '2' } }],
    // operand types: ADD of a string is refused, of a number accepted
    ['ADD #c :v', { '#c': 'c' }, { ':v': { S: 'no' } }],
    ['ADD #c :v', { '#c': 'c' }, { ':v': { N: '2' } }],
    ['SET #c = #c + :v', { '#c': 'c' }, { ':v': { N: '3' } }],
    ['SET #c = #c + :v', { '#c': 'c' }, { ':v': { S: '3' } }],
    ['SET #l = list_append(#l, :v)', { '#l': 'l' }, { ':v': { L: [{ S: 'a' }] } }],
    // unknown and unused placeholders, a reserved word, a syntax error, nested paths
    ['SET #a = :v', { '#a': 'a', '#unused': 'u' }, { ':v': { S: '1' }, ':extra': { S: '2' } }],
    ['SET #a = :missing', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['SET #missing = :v', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['SET data = :v', {}, { ':v': { S: '1' } }],
    ['SET #a = = :v', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['SET #a.#b[2] = :v REMOVE #c.d', { '#a': 'a', '#b': 'b', '#c': 'c' }, { ':v': { M: { k: { S: '1' } } } }],
    ['SET #a.#b[2] = :v REMOVE #c.d', { '#a': 'z', '#b': 'y', '#c': 'x' }, { ':v': { M: { q: { N: '1' } } } }],
    ['SET #a = :v REMOVE #a', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['SET #a = if_not_exists(#a, :v), #b = if_not_exists(#b, :v)', { '#a': 'p', '#b': 'q' }, { ':v': { S: 't1' } }],
    ['SET #a = if_not_exists(#a, :v), #b = if_not_exists(#b, :v)', { '#a': 'p', '#b': 'p' }, { ':v': { S: 't1' } }],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [expr, names, vals] of cases) {
      assert.deepEqual(run(p, expr, names, vals), run(updateParser, expr, names, vals), `${expr} with ${JSON.stringify(names)} ${JSON.stringify(vals)} (round ${round})`);
    }
  }
});

test('a call gets its own names and value objects, not those of the call the shape was first parsed for', () => {
  const p = patched();
  const first = { ':v': { S: 'one' } };
  const second = { ':v': { S: 'two' } };
  p.parse('SET #a = :v', { context: { attrNames: { '#a': 'first' }, attrVals: first, unusedAttrNames: {}, unusedAttrVals: {}, isReserved } });
  const got = p.parse('SET #a = :v', { context: { attrNames: { '#a': 'second' }, attrVals: second, unusedAttrNames: {}, unusedAttrVals: {}, isReserved } }) as { sections: { path: string[]; val: unknown }[] };
  assert.deepEqual(got.sections[0]!.path, ['second']);
  assert.equal(got.sections[0]!.val, second[':v']);
});

test('projections: the store\'s own, nested paths, overlaps, literal and reserved names answer as the parser does, call after call', () => {
  const p = patched(projectionParser);
  const cases: [string, Names][] = [
    ['#a0, #a1, #a2', { '#a0': 'id', '#a1': 'workflowId', '#a2': 'GSI2PK' }],
    ['#a0, #a1, #a2', { '#a0': 'r_1', '#a1': 'r_2', '#a2': 'r_3' }],
    ['#a0, #a1', { '#a0': 'same', '#a1': 'same' }],
    ['#a0, #a0.#b', { '#a0': 'a', '#b': 'b' }],
    ['#a0.#b[1], #c', { '#a0': 'a', '#b': 'b', '#c': 'c' }],
    ['#a0.#b[1], #c', { '#a0': 'x', '#b': 'y', '#c': 'x' }],
    ['id, #a0', { '#a0': 'id' }],
    ['id, #a0', { '#a0': 'other' }],
    ['data, #a0', { '#a0': 'x' }],
    ['#a0, #missing', { '#a0': 'x' }],
    ['#a0', { '#a0': 'x', '#unused': 'u' }],
    ['#a0,, #a1', { '#a0': 'x', '#a1': 'y' }],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [expr, names] of cases) {
      assert.deepEqual(run(p, expr, names, {}), run(projectionParser, expr, names, {}), `${expr} with ${JSON.stringify(names)} (round ${round})`);
    }
  }
});

test('conditions: the store\'s own, and every value-, name- and literal-sensitive check, answer as the parser does, call after call', () => {
  const p = patched(conditionParser, CONDITION_OPTS);
  const cases: [string, Names, Vals][] = [
    // the store's conditions (buildUpdate) and key conditions (queryPrefix)
    ['attribute_exists(#c0)', { '#c0': 'GSI2PK' }, {}],
    ['attribute_exists(#c0)', { '#c0': 'pend_ab12' }, {}],
    ['attribute_not_exists(#c0) AND #c1 = :c0', { '#c0': 'PK', '#c1': 'status' }, { ':c0': { S: 'RUNNING' } }],
    ['(#c0 = :c0 OR #c0 < :c1) AND #c1 IN (:c2, :c3)', { '#c0': 'version', '#c1': 'state' }, { ':c0': { N: '3' }, ':c1': { N: '1' }, ':c2': { S: 'a' }, ':c3': { S: 'b' } }],
    ['#pk = :pk AND begins_with(#sk, :prefix)', { '#pk': 'PK', '#sk': 'SK' }, { ':pk': { S: 'ACCT#1' }, ':prefix': { S: 'NOTE#' } }],
    ['#pk = :pk AND begins_with(#sk, :prefix)', { '#pk': 'PK', '#sk': 'SK' }, { ':pk': { S: 'ACCT#1' }, ':prefix': { N: '1' } }],
    // BETWEEN compares its bounds and attribute_type reads its type name: parsed as is, every time
    ['#pk = :pk AND #sk BETWEEN :from AND :to', { '#pk': 'PK', '#sk': 'SK' }, { ':pk': { S: 'p' }, ':from': { S: 'a' }, ':to': { S: 'b' } }],
    ['#pk = :pk AND #sk BETWEEN :from AND :to', { '#pk': 'PK', '#sk': 'SK' }, { ':pk': { S: 'p' }, ':from': { S: 'b' }, ':to': { S: 'a' } }],
    ['#a between :from and :to', { '#a': 'a' }, { ':from': { N: '2' }, ':to': { N: '10' } }],
    ['#a between :from and :to', { '#a': 'a' }, { ':from': { N: '10' }, ':to': { N: '2' } }],
    ['attribute_type(#a, :t)', { '#a': 'a' }, { ':t': { S: 'N' } }],
    ['attribute_type(#a, :t)', { '#a': 'a' }, { ':t': { S: 'Q' } }],
    // two placeholders on one attribute are not distinct; a literal name beside a placeholder naming it
    ['#a <> #b', { '#a': 'x', '#b': 'x' }, {}],
    ['#a <> #b', { '#a': 'x', '#b': 'y' }, {}],
    ['x <> #b', { '#b': 'x' }, {}],
    ['x <> #b', { '#b': 'y' }, {}],
    // operand types, misused functions, unknown and unused placeholders, reserved words, syntax
    ['size(#a) > :v', { '#a': 'a' }, { ':v': { N: '1' } }],
    ['size(:v) > :w', {}, { ':v': { N: '1' }, ':w': { N: '1' } }],
    ['size(:v) > :w', {}, { ':v': { S: 'abc' }, ':w': { N: '1' } }],
    ['contains(#a, :v) AND NOT #b.#c[0] = :w', { '#a': 'a', '#b': 'b', '#c': 'c' }, { ':v': { SS: ['x'] }, ':w': { M: { k: { S: '1' } } } }],
    ['attribute_exists(#a)', { '#a': 'a', '#unused': 'u' }, { ':extra': { S: '1' } }],
    ['#a = :missing', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['#missing = :v', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['data = :v', {}, { ':v': { S: '1' } }],
    ['((#a = :v))', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['#a = = :v', { '#a': 'a' }, { ':v': { S: '1' } }],
    ['unknown_fn(#a)', { '#a': 'a' }, {}],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [expr, names, vals] of cases) {
      assert.deepEqual(run(p, expr, names, vals), run(conditionParser, expr, names, vals), `${expr} with ${JSON.stringify(names)} ${JSON.stringify(vals)} (round ${round})`);
    }
  }
});
