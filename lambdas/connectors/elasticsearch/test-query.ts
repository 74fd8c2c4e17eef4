// Query evaluation for the search stand-in (test-server.ts): the subset of the query DSL the
// destination and its tests use, with the stores' semantics on keyword fields (whole value) and
// analysed text fields (lowercased word tokens; match_phrase needs them in order).
export type Query = Record<string, any>;

/** `ids` lists as sets, once per query object (a rewrite's keep-list has one id per record). */
const idSets = new WeakMap<object, Set<string>>();

function tokens(v: unknown): string[] {
  return String(v).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function valuesAt(doc: Record<string, any>, field: string): unknown[] {
  let cur: unknown = doc;
  for (const part of field.split('.')) {
    if (cur === null || typeof cur !== 'object') return [];
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return [];
  return Array.isArray(cur) ? cur : [cur];
}

/** The mapping of a field (`a.keyword` is the keyword sub-field of text field `a`). */
function fieldKind(field: string, props: Record<string, any>): { source: string; analysed: boolean } {
  const [base, sub] = field.split('.');
  const m = props[base!];
  if (sub && m?.fields?.[sub]) return { source: base!, analysed: m.fields[sub].type === 'text' };
  return { source: field, analysed: m?.type === 'text' || m?.type === 'match_only_text' };
}

function single(q: Record<string, any>): [string, unknown] {
  const [field, v] = Object.entries(q)[0]!;
  return [field, v !== null && typeof v === 'object' && !Array.isArray(v) ? (v.value ?? v.query) : v];
}

function containsRun(hay: string[], needle: string[]): boolean {
  if (!needle.length) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((t, j) => hay[i + j] === t)) return true;
  return false;
}

export function matches(q: Query, id: string, doc: Record<string, any>, props: Record<string, any>): boolean {
  const [kind, body] = Object.entries(q)[0] ?? [];
  switch (kind) {
    case 'match_all':
      return true;
    case 'match_none':
      return false;
    case 'ids': {
      let set = idSets.get(body);
      if (!set) idSets.set(body, (set = new Set(body.values as string[])));
      return set.has(id);
    }
    case 'term': {
      const [field, value] = single(body);
      const f = fieldKind(field, props);
      return valuesAt(doc, f.source).some((v) => (f.analysed ? tokens(v).includes(String(value)) : String(v) === String(value)));
    }
    case 'match': {
      const [field, value] = single(body);
      const f = fieldKind(field, props);
      const want = tokens(value);
      return valuesAt(doc, f.source).some((v) => (f.analysed ? tokens(v).some((t) => want.includes(t)) : String(v) === String(value)));
    }
    case 'match_phrase': {
      const [field, value] = single(body);
      const f = fieldKind(field, props);
      return valuesAt(doc, f.source).some((v) => (f.analysed ? containsRun(tokens(v), tokens(value)) : String(v) === String(value)));
    }
    case 'bool': {
      const all = (list: unknown) => (Array.isArray(list) ? list : list ? [list] : []) as Query[];
      const must = [...all(body.filter), ...all(body.must)];
      if (!must.every((c) => matches(c, id, doc, props))) return false;
      if (all(body.must_not).some((c) => matches(c, id, doc, props))) return false;
      const should = all(body.should);
      return should.length && !must.length ? should.some((c) => matches(c, id, doc, props)) : true;
    }
    default:
      throw new Error(`stand-in does not evaluate [${String(kind)}] queries`);
  }
}
