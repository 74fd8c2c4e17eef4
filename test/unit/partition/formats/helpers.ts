// Shared helpers for the format partitioner tests: a FormatContext stub and corpus access.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Element } from '../../../../lambdas/engine/elements';
import { DEFAULT_PARTITION_OPTIONS, type FileType, type FormatContext, type PartitionInput, type PartitionOptions } from '../../../../lambdas/engine/partition/types';
import { FORMAT_PARTITIONERS } from '../../../../lambdas/engine/partition/formats/index';
import { rankTitleDepths, setElementHierarchy } from '../../../../lambdas/engine/partition/hierarchy';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const CORPUS = path.resolve(repoRoot, '../shared/corpus');

export function corpusDoc(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(CORPUS, 'docs', name)));
}

export function expected(set: string, name: string): Element[] | undefined {
  const p = path.join(CORPUS, 'expected', set, `${name}.json`);
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Element[]) : undefined;
}

export interface TestContext extends FormatContext {
  warnings: string[];
  nested: PartitionInput[];
}

export function context(filetype: FileType, options: Partial<PartitionOptions> = {}, filename = `doc.${filetype}`): TestContext {
  const warnings: string[] = [];
  const nested: PartitionInput[] = [];
  return {
    filename,
    filetype,
    options: { ...DEFAULT_PARTITION_OPTIONS, ...options },
    warnings,
    nested,
    warn: (m: string) => warnings.push(m),
    partitionNested: async (input: PartitionInput) => {
      nested.push(input);
      return [{ type: 'NarrativeText', element_id: 'nested', text: `nested ${input.filename}`, metadata: {} }];
    },
  };
}

export async function partition(filetype: FileType, data: Uint8Array | string, options: Partial<PartitionOptions> = {}): Promise<Element[]> {
  const p = FORMAT_PARTITIONERS[filetype];
  if (!p) throw new Error(`no partitioner for ${filetype}`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return p(bytes, context(filetype, options));
}

/** partition() followed by the pipeline's hierarchy step (title depths, parent_id), ids still provisional. */
export async function partitionWithHierarchy(filetype: FileType, data: Uint8Array | string, options: Partial<PartitionOptions> = {}): Promise<Element[]> {
  return setElementHierarchy(rankTitleDepths(await partition(filetype, data, options)));
}

/** Clean concatenated text as the scorer builds it. */
export function cleanText(els: { text: string }[]): string {
  return els
    .map((e) => e.text)
    .join('\n')
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** 1 - normalised Levenshtein distance (small texts only). */
export function textAccuracy(out: string, exp: string): number {
  if (!exp.length) return out.length ? 0 : 1;
  let prev = Array.from({ length: exp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= out.length; i++) {
    const cur = [i];
    for (let j = 1; j <= exp.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (out[i - 1] === exp[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return 1 - Math.min(1, prev[exp.length]! / exp.length);
}

/** 1 - half the L1 distance between normalised type histograms. */
export function typeAgreement(out: { type: string }[], exp: { type: string }[]): number {
  if (!out.length || !exp.length) return out.length === exp.length ? 1 : 0;
  const hist = (els: { type: string }[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const e of els) m.set(e.type, (m.get(e.type) ?? 0) + 1);
    return m;
  };
  const ho = hist(out);
  const he = hist(exp);
  let l1 = 0;
  for (const t of new Set([...ho.keys(), ...he.keys()])) l1 += Math.abs((ho.get(t) ?? 0) / out.length - (he.get(t) ?? 0) / exp.length);
  return 1 - 0.5 * l1;
}

export const types = (els: Element[]): string[] => els.map((e) => e.type);
