// A dynalite patch (applied on its thread, see dynamodb.ts): Update, Projection and Condition
// expressions parsed once per shape.
//
// dynalite parses every expression with a generated PEG parser whose ~100 rule functions are
// closures created afresh by each parse; V8 keeps their optimized code only while a closure holds it,
// so the parser was re-optimized again and again (measured on mark-read: ~5 TurboFan compilations
// and ~1.4 ms of parsing per call on a 2-core machine, where the compiler threads compete with the
// API). The service's updates repeat a few shapes: the same text with other names and values bound
// to its `#n`/`:v` placeholders (a read mark claim of 50 ids is always the same 50 clauses).
//
// So a parse is done once per (text, placeholder names, value types) on stand-ins: each `#name`
// bound to a name no expression can spell, each `:value` to a value of the same type. Its result,
// with the stand-ins swapped for the call's own names and value objects, is what the parser returns
// for that call, on these conditions (otherwise the call is parsed as before):
// - the stand-in parse succeeded (errors come from the parser itself, with the call's own names);
// - every path of the expression starts with a placeholder (a literal attribute name could overlap
//   one of the call's names, which the stand-ins cannot): the update and projection parsers list
//   their paths, the condition parser their heads (`pathHeads`);
// - the call's names are distinct (two placeholders on one attribute overlap: the parser says so).
// The placeholders the parse used are struck from the context's unused lists, as the parser does.
// Condition parses (ConditionExpression, KeyConditionExpression, FilterExpression) also look into
// values: BETWEEN compares its bounds, attribute_type reads its type name. A stand-in of the same type
// does not carry that, so expressions matching `parseAsIs` (for conditions: BETWEEN or attribute_type,
// in any case) are parsed as before, every time.

type Ctx = {
  attrNames?: Record<string, string>;
  attrVals?: Record<string, Record<string, unknown>>;
  unusedAttrNames?: Record<string, unknown>;
  unusedAttrVals?: Record<string, unknown>;
  [k: string]: unknown;
};
type Parser = { parse(str: string, options?: { context?: Ctx }): unknown };

export function cacheParsesByShape(parser: Parser, opts: { maxShapes?: number; parseAsIs?: RegExp } = {}): void {
  const maxShapes = opts.maxShapes ?? 256;
  const TYPES = ['S', 'N', 'B', 'NULL', 'BOOL', 'SS', 'NS', 'BS', 'L', 'M'];
  const STAND_IN = '\u0001stand-in\u0001';
  const typeOf = (v: Record<string, unknown> | undefined) => (v && typeof v === 'object' ? TYPES.find((t) => v[t] != null) : undefined);
  interface Template {
    result: unknown;
    /** stand-in name → placeholder, and stand-in value object → placeholder */
    names: Map<string, string>;
    values: Map<object, string>;
    usedNames: string[];
    usedValues: string[];
  }
  const templates = new Map<string, Template | null>();
  const parse = parser.parse;

  const build = (str: string, ctx: Ctx): Template | null => {
    const names = new Map<string, string>();
    const values = new Map<object, string>();
    const attrNames: Record<string, string> = Object.create(null);
    const attrVals: Record<string, Record<string, unknown>> = Object.create(null);
    for (const k of Object.keys(ctx.attrNames ?? {})) {
      attrNames[k] = `${STAND_IN}${k}`;
      names.set(attrNames[k]!, k);
    }
    for (const [k, v] of Object.entries(ctx.attrVals ?? {})) {
      const t = typeOf(v);
      if (!t) return null;
      // the stand-in carries the real value's type and, for sets and lists, its shape
      attrVals[k] = { [t]: structuredClone(v[t]) };
      values.set(attrVals[k]!, k);
    }
    const unusedAttrNames: Record<string, unknown> = Object.assign(Object.create(null), attrNames);
    const unusedAttrVals: Record<string, unknown> = Object.assign(Object.create(null), attrVals);
    let result: unknown;
    try {
      result = parse.call(parser, str, { context: { ...ctx, attrNames, attrVals, unusedAttrNames, unusedAttrVals } });
    } catch {
      return null;
    }
    if (!result || typeof result !== 'object') return null;
    const { paths = [], pathHeads = {} } = result as { paths?: unknown[][]; pathHeads?: Record<string, unknown> };
    if (!paths.every((p) => Array.isArray(p) && typeof p[0] === 'string' && names.has(p[0]))) return null;
    if (!Object.keys(pathHeads).every((head) => names.has(head))) return null;
    return {
      result,
      names,
      values,
      usedNames: Object.keys(attrNames).filter((k) => !(k in unusedAttrNames)),
      usedValues: Object.keys(attrVals).filter((k) => !(k in unusedAttrVals)),
    };
  };

  /** The template's result with the stand-ins swapped for this call's names and value objects. */
  const instantiate = (tpl: Template, ctx: Ctx): unknown => {
    const swap = (x: unknown): unknown => {
      if (typeof x === 'string') return tpl.names.has(x) ? ctx.attrNames![tpl.names.get(x)!] : x;
      if (!x || typeof x !== 'object') return x;
      if (tpl.values.has(x)) return ctx.attrVals![tpl.values.get(x)!];
      if (Array.isArray(x)) return x.map(swap);
      const out: Record<string, unknown> = Object.getPrototypeOf(x) === null ? Object.create(null) : {};
      for (const [k, v] of Object.entries(x)) out[tpl.names.has(k) ? ctx.attrNames![tpl.names.get(k)!]! : k] = swap(v);
      return out;
    };
    return swap(tpl.result);
  };

  parser.parse = function (str, options) {
    const ctx = options?.context;
    if (!ctx || opts.parseAsIs?.test(str)) return parse.call(this, str, options);
    const names = ctx.attrNames ?? {};
    const vals = ctx.attrVals ?? {};
    const key = [str, Object.keys(names).join('\u0000'), Object.entries(vals).map(([k, v]) => `${k}=${typeOf(v)}`).join('\u0000')].join('\u0001');
    let tpl = templates.get(key);
    if (tpl === undefined) {
      if (templates.size >= maxShapes) templates.clear();
      tpl = build(str, ctx);
      templates.set(key, tpl);
    }
    if (!tpl) return parse.call(this, str, options);
    const used = tpl.usedNames.map((k) => names[k]);
    if (new Set(used).size !== used.length) return parse.call(this, str, options);
    for (const k of tpl.usedNames) delete ctx.unusedAttrNames?.[k];
    for (const k of tpl.usedValues) delete ctx.unusedAttrVals?.[k];
    return instantiate(tpl, ctx);
  };
}
