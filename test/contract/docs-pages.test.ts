// The documentation holds (issue 31): the pages that restate the code are current (`npm run docs`
// writes them from the config schema, the connector registry and the route table), every relative link
// of README.md and docs/ leads to a file (and a heading, when it names one), the README stays a path
// (at most 300 lines), and every environment variable the code reads is on the configuration page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { applyPart, generatedParts } from '../../bin/docs-gen';

const root = path.resolve(import.meta.dirname, '../..');
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out;
}

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
const headings = (text: string) => new Set(text.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));

test('generated documentation is current (npm run docs)', () => {
  const pages = new Map<string, string>();
  for (const part of generatedParts(root)) {
    const current = pages.get(part.file) ?? (existsSync(path.join(root, part.file)) ? read(part.file) : undefined);
    pages.set(part.file, applyPart(current, part));
  }
  for (const [rel, text] of pages) assert.equal(read(rel), text, `${rel} is stale: run npm run docs`);
});

test('every relative link of README.md and docs/ leads to a file, and to a heading when it names one', () => {
  const dead: string[] = [];
  for (const rel of markdownFiles()) {
    const text = read(rel).replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file ? path.join(path.dirname(rel), file) : rel;
      if (!existsSync(path.join(root, resolved))) {
        dead.push(`${rel}: ${target}`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !headings(read(resolved)).has(anchor)) dead.push(`${rel}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(dead, []);
});

test('the README is a path: at most 300 lines', () => {
  const lines = read('README.md').split('\n').length;
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});

test('every environment variable the code reads is on the configuration page', () => {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.(ts|mts|mjs)$/.test(e.name)) {
        for (const m of read(rel).matchAll(/process\.env\.([A-Z][A-Z0-9_]+)|env, '([A-Z][A-Z0-9_]+)'|\benv\.([A-Z][A-Z0-9_]{3,})/g)) names.add((m[1] ?? m[2] ?? m[3])!);
      }
    }
  };
  for (const dir of ['lambdas', 'local', 'bin']) walk(dir);
  // -- the runtime's own (AWS Lambda, the AWS SDK, the CDK CLI, the shell) --
  const runtime = /^(AWS_|CDK_|LAMBDA_TASK_ROOT$|PATH$)/;
  const page = read('docs/configuration.md');
  const missing = [...names].filter((n) => !runtime.test(n) && !page.includes(n)).sort();
  assert.deepEqual(missing, [], 'read by the code but not on docs/configuration.md');
});
