// npm run docs — writes the generated documentation (bin/docs-gen.ts): the parts of README.md and docs/
// that restate the code. `--check` writes nothing and exits 1 naming each stale page.
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyPart, generatedParts } from './docs-gen';

const root = path.resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const pages = new Map<string, string | undefined>();
for (const part of generatedParts(root)) {
  const file = path.join(root, part.file);
  if (!pages.has(part.file)) pages.set(part.file, existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  pages.set(part.file, applyPart(pages.get(part.file), part));
}
let stale = 0;
for (const [rel, text] of pages) {
  const file = path.join(root, rel);
  const now = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (now === text) continue;
  stale++;
  if (check) console.log(`stale: ${rel} (run npm run docs)`);
  else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text!);
    console.log(`wrote ${rel}`);
  }
}
if (!stale) console.log('generated documentation is current');
process.exit(check && stale ? 1 : 0);
