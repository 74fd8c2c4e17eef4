// The import graph read from the sources with the TypeScript scanner (ts.preProcessFile): import,
// import type, export … from, import('…'), typeof import('…'), require('…'). Relative specifiers are
// resolved the way the bundler resolution does; package specifiers are kept as package names.
// Used by the import-graph test (circles, arrows) and the dependencies test (what product code uses).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** Repository-relative path with forward slashes. */
export const rel = (p: string) => relative(ROOT, p).split('\\').join('/');

/** Every source file below a repository folder (no declaration files, no node_modules). */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir)).sort()) {
    const p = join(dir, name);
    if (statSync(join(ROOT, p)).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') out.push(...sources(p));
    } else if (/\.(ts|mts|tsx|mjs)$/.test(name) && !/\.d\.m?ts$/.test(name)) out.push(p.split('\\').join('/'));
  }
  return out;
}

/** A relative specifier resolved as written, or with .ts/.mts/.tsx, or as a folder's index.ts. */
export function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(ROOT, dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return rel(c);
  }
  return undefined;
}

/** The specifiers a source text imports, in every form the scanner knows. */
export function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The package a bare specifier names ('@scope/name/sub' → '@scope/name'), or undefined for node: and relative ones. */
export function packageOf(spec: string): string | undefined {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export interface ModuleImports {
  /** Repository-relative files this module imports. */
  files: string[];
  /** Packages this module imports. */
  packages: string[];
}

/** One module's imports; a relative specifier that resolves to no file throws. */
export function importsOf(file: string): ModuleImports {
  const files = new Set<string>();
  const packages = new Set<string>();
  for (const spec of specifiers(readFileSync(join(ROOT, file), 'utf8'))) {
    if (spec.startsWith('.')) {
      const target = resolveRelative(file, spec);
      if (!target) throw new Error(`${file} imports '${spec}', which resolves to no file`);
      files.add(target);
    } else {
      const p = packageOf(spec);
      if (p) packages.add(p);
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}
