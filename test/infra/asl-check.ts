// Structural checks of an Amazon States Language definition, beyond what asl-validator's schema
// covers: every transition target exists in its own scope (top level, each Parallel branch, each
// Map processor), every state is reachable from StartAt, non-terminal states say Next or End,
// the definition is JSONPath (aws-local-stepfunctions ignores JSONata), and every ${Placeholder}
// is well-formed and, when a substitutions list is given, listed in it.

export interface AslCheckOptions {
  /** Names the CDK passes as definitionSubstitutions; when given, every placeholder must be one. */
  substitutions?: Iterable<string>;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const PLACEHOLDER = /\$\{([^}]*)\}/g;
const WELL_FORMED = /^[A-Za-z][A-Za-z0-9_]*$/;
const NO_NEXT = new Set(['Choice', 'Succeed', 'Fail']);

export function checkAsl(definition: unknown, opts: AslCheckOptions = {}): string[] {
  const errors: string[] = [];
  if (!isObj(definition)) return ['definition is not a JSON object'];
  if (definition.QueryLanguage !== undefined && definition.QueryLanguage !== 'JSONPath') {
    errors.push(`QueryLanguage ${String(definition.QueryLanguage)}: write JSONPath (the local runner ignores JSONata)`);
  }
  checkScope(definition, '$', errors);
  const allowed = opts.substitutions ? new Set(opts.substitutions) : undefined;
  for (const { path, text } of strings(definition, '$')) {
    for (const m of text.matchAll(PLACEHOLDER)) {
      const name = m[1]!;
      if (!WELL_FORMED.test(name)) errors.push(`${path}: malformed placeholder \${${name}}`);
      else if (allowed && !allowed.has(name)) errors.push(`${path}: placeholder \${${name}} is not in the substitutions map`);
    }
    if (/\$\{[^}]*$/.test(text.replace(PLACEHOLDER, ''))) errors.push(`${path}: unterminated placeholder in "${text}"`);
  }
  return errors;
}

/** Placeholder names used anywhere in the definition. */
export function placeholders(definition: unknown): string[] {
  const out = new Set<string>();
  for (const { text } of strings(definition, '$')) for (const m of text.matchAll(PLACEHOLDER)) out.add(m[1]!);
  return [...out].sort();
}

function checkScope(scope: Obj, where: string, errors: string[]): void {
  const states = scope.States;
  if (!isObj(states) || Object.keys(states).length === 0) {
    errors.push(`${where}: States is missing or empty`);
    return;
  }
  const names = new Set(Object.keys(states));
  const startAt = scope.StartAt;
  if (typeof startAt !== 'string') errors.push(`${where}: StartAt is missing`);
  else if (!names.has(startAt)) errors.push(`${where}: StartAt "${startAt}" is not a state`);

  const edges = new Map<string, string[]>();
  for (const [name, state] of Object.entries(states)) {
    const at = `${where}.States.${name}`;
    if (!isObj(state)) {
      errors.push(`${at}: not an object`);
      continue;
    }
    const type = String(state.Type);
    const targets: { label: string; target: Json | undefined }[] = [];
    if (state.Next !== undefined) targets.push({ label: 'Next', target: state.Next });
    if (state.Default !== undefined) targets.push({ label: 'Default', target: state.Default });
    if (Array.isArray(state.Choices)) {
      state.Choices.forEach((c, i) => targets.push({ label: `Choices[${i}].Next`, target: isObj(c) ? c.Next : undefined }));
    }
    if (Array.isArray(state.Catch)) {
      state.Catch.forEach((c, i) => targets.push({ label: `Catch[${i}].Next`, target: isObj(c) ? c.Next : undefined }));
    }
    for (const { label, target } of targets) {
      if (typeof target !== 'string') errors.push(`${at}: ${label} is missing`);
      else if (!names.has(target)) errors.push(`${at}: ${label} "${target}" is not a state in this scope`);
    }
    edges.set(name, targets.map((t) => t.target).filter((t): t is string => typeof t === 'string'));

    if (type === 'Choice' && !(Array.isArray(state.Choices) && state.Choices.length > 0)) errors.push(`${at}: Choice without Choices`);
    if (!NO_NEXT.has(type)) {
      const hasNext = state.Next !== undefined;
      const hasEnd = state.End === true;
      if (hasNext === hasEnd) errors.push(`${at}: needs exactly one of Next or End`);
    }
    if (type === 'Task' && typeof state.Resource !== 'string') errors.push(`${at}: Task without Resource`);
    if (type === 'Parallel') {
      if (!Array.isArray(state.Branches) || state.Branches.length === 0) errors.push(`${at}: Parallel without Branches`);
      else state.Branches.forEach((b, i) => (isObj(b) ? checkScope(b, `${at}.Branches[${i}]`, errors) : errors.push(`${at}.Branches[${i}]: not an object`)));
    }
    if (type === 'Map') {
      const processor = state.ItemProcessor ?? state.Iterator;
      if (!isObj(processor)) errors.push(`${at}: Map without ItemProcessor`);
      else checkScope(processor, `${at}.ItemProcessor`, errors);
    }
  }

  if (typeof startAt === 'string' && names.has(startAt)) {
    const seen = new Set<string>([startAt]);
    const todo = [startAt];
    while (todo.length) for (const next of edges.get(todo.pop()!) ?? []) if (!seen.has(next)) (seen.add(next), todo.push(next));
    for (const name of names) if (!seen.has(name)) errors.push(`${where}.States.${name}: unreachable from StartAt`);
  }
}

function* strings(v: unknown, path: string): Generator<{ path: string; text: string }> {
  if (typeof v === 'string') yield { path, text: v };
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], `${path}[${i}]`);
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) yield* strings(x, `${path}.${k}`);
}
