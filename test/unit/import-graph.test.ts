// The import graph read from the sources (lambdas/, lib/, bin/, local/): no module imports itself back
// through a circle (type imports count), and arrows point down: the engine and the connectors import
// nothing from the domain, the services, the handlers or the HTTP layer (STYLE.md, "Arrows point down").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importsOf, sources, specifiers } from '../support/import-graph';

const DIRS = ['lambdas', 'lib', 'bin', 'local'];

/** Every module of DIRS and the modules it imports (relative imports only). */
function readGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of DIRS.flatMap((d) => sources(d)).filter((f) => /\.(ts|mts|tsx)$/.test(f))) graph.set(file, importsOf(file).files);
  return graph;
}

/** The strongly connected components with more than one module (or a module importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** One concrete circle inside a component, for the message: a → b → … → a. */
function oneCycle(graph: Map<string, string[]>, scc: string[]): string[] {
  const members = new Set(scc);
  const start = [...scc].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return [...path, start];
      }
      if (!seen.has(w)) {
        seen.add(w);
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return scc;
}

const graph = readGraph();

test('the reader sees every form of import: import, import type, export … from, import(), typeof import()', () => {
  const text = [
    "import { a } from './a';",
    "import type { B } from './b';",
    "export { c } from './c';",
    "export type * from './d';",
    "const e = await import('./e');",
    "type F = typeof import('./f');",
  ].join('\n');
  const seen = specifiers(text).sort();
  assert.deepEqual(seen, ['./a', './b', './c', './d', './e', './f']);
});

test('the import graph is read: the sources and their relative imports', () => {
  assert.ok(graph.size > 300, `${graph.size} modules`);
  assert.ok(graph.get('lambdas/routes.ts')?.length, 'lambdas/routes.ts imports modules');
});

test('no import circles in lambdas/, lib/, bin/, local/ (type imports count)', () => {
  const found = circles(graph).map((scc) => `${oneCycle(graph, scc).join(' → ')}  (${scc.length} modules in the circle)`);
  assert.deepEqual(found, [], `import circles:\n${found.join('\n')}`);
});

test('the engine and the connectors import nothing from the domain, the services, the handlers or the HTTP layer', () => {
  const lower = /^lambdas\/(engine|connectors)\//;
  const upper = /^lambdas\/(domain|services|handlers|http)\//;
  const arrows = [...graph].flatMap(([from, deps]) =>
    lower.test(from) ? deps.filter((d) => upper.test(d)).map((d) => `${from} → ${d}`) : [],
  );
  assert.deepEqual(arrows, [], `arrows pointing up:\n${arrows.join('\n')}`);
});
