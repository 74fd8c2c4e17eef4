// Multipart form fields of POST /general/v0/general → PartitionOptions. Fields arrive as lists of
// strings (repeated parts); array fields may also come as `name[]` keys, comma-joined strings or a
// JSON array string. Booleans are 'true'/'false' in any case (and FastAPI's other spellings).
// Invalid values → ValidationError (422, FastAPI-style detail). Unknown fields (the SDK's split_pdf_*,
// tracking_enabled, ...) are ignored; chunking fields are parsed elsewhere (chunking params).
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../../errors';
import { arrayValues } from '../../validation';
import { iso639_3, tesseractCode } from './languages';
import { DEFAULT_PARTITION_OPTIONS, type PartitionOptions, type Strategy } from './types';

export const STRATEGIES = ['auto', 'fast', 'hi_res', 'ocr_only', 'od_only', 'vlm'] as const;
export const OUTPUT_FORMATS = ['application/json', 'text/csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ParsedPartitionForm {
  options: PartitionOptions;
  outputFormat: OutputFormat;
  contentType?: string;
  gzUncompressedContentType?: string;
}

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

const boolField = z.string().trim().transform((s, ctx) => {
  const v = s.toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  ctx.addIssue({ code: 'custom', message: 'Input should be a valid boolean, unable to interpret input', params: { type: 'bool_parsing' } });
  return z.NEVER;
});

const intField = z.string().trim().transform((s, ctx) => {
  if (!/^[+-]?\d+$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: 'Input should be a valid integer, unable to parse string as an integer', params: { type: 'int_parsing' } });
    return z.NEVER;
  }
  return Number.parseInt(s, 10);
});

const enumField = <T extends readonly [string, ...string[]]>(values: T) =>
  z.string().trim().transform((s, ctx) => {
    const v = s.toLowerCase();
    const hit = values.find((x) => x.toLowerCase() === v);
    if (hit) return hit as T[number];
    const list = values.map((x) => `'${x}'`);
    ctx.addIssue({ code: 'custom', message: `Input should be ${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`, params: { type: 'enum' } });
    return z.NEVER;
  });

/** Normalises keys (`languages[]` → `languages`) and merges repeated values. */
function normalise(fields: Record<string, string[] | string | undefined>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [rawKey, raw] of Object.entries(fields)) {
    if (raw === undefined) continue;
    const key = rawKey.replace(/\[\d*\]$/, '').trim();
    const values = Array.isArray(raw) ? raw : [raw];
    out.set(key, [...(out.get(key) ?? []), ...values.map(String)]);
  }
  return out;
}

const BLOCK_TYPES: Record<string, string> = { image: 'Image', table: 'Table', figure: 'Image', formula: 'Formula' };

export function parsePartitionForm(fields: Record<string, string[]>): ParsedPartitionForm {
  const f = normalise(fields);
  const issues: ValidationIssue[] = [];
  const scalar = (name: string): string | undefined => {
    const v = f.get(name);
    if (!v || v.length === 0) return undefined;
    return v[v.length - 1];
  };
  function parse<T>(name: string, schema: z.ZodType<T>): T | undefined {
    const raw = scalar(name);
    if (raw === undefined || (raw.trim() === '' && name !== 'encoding')) return undefined;
    const r = schema.safeParse(raw);
    if (r.success) return r.data;
    for (const i of r.error.issues) {
      const type = (i as { params?: { type?: string } }).params?.type ?? 'value_error';
      issues.push({ loc: ['body', name], msg: i.message, type, input: raw });
    }
    return undefined;
  }

  const o: PartitionOptions = { ...DEFAULT_PARTITION_OPTIONS, languages: [], ocrLanguages: [...DEFAULT_PARTITION_OPTIONS.ocrLanguages] };
  const strategy = parse('strategy', enumField(STRATEGIES));
  if (strategy) o.strategy = strategy as Strategy;
  const outputFormat = parse('output_format', enumField(OUTPUT_FORMATS)) ?? 'application/json';
  const bools: [string, keyof PartitionOptions][] = [
    ['coordinates', 'coordinates'],
    ['include_page_breaks', 'includePageBreaks'],
    ['unique_element_ids', 'uniqueElementIds'],
    ['xml_keep_tags', 'xmlKeepTags'],
    ['include_slide_notes', 'includeSlideNotes'],
    ['pdf_infer_table_structure', 'pdfInferTableStructure'],
    ['process_attachments', 'processAttachments'],
    ['detect_language_per_element', 'detectLanguagePerElement'],
  ];
  for (const [name, key] of bools) {
    const v = parse(name, boolField);
    if (v !== undefined) (o as unknown as Record<string, unknown>)[key] = v;
  }
  const start = parse('starting_page_number', intField);
  if (start !== undefined) {
    if (start < 1) issues.push({ loc: ['body', 'starting_page_number'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: String(start) });
    else o.startingPageNumber = start;
  }
  const encoding = scalar('encoding')?.trim();
  if (encoding) {
    try { new TextDecoder(encoding); o.encoding = encoding; } catch {
      issues.push({ loc: ['body', 'encoding'], msg: `Unknown encoding: ${encoding}`, type: 'value_error', input: encoding });
    }
  }
  const hiRes = scalar('hi_res_model_name')?.trim();
  if (hiRes) o.hiResModelName = hiRes;

  // languages (ISO 639-3 or tesseract codes); ocr_languages is the deprecated tesseract form ('eng+kor').
  const langs = arrayValues(f.get('languages')).flatMap((l) => l.split('+')).filter(Boolean);
  const ocrLangs = arrayValues(f.get('ocr_languages')).flatMap((l) => l.split('+')).filter(Boolean);
  for (const l of [...langs, ...ocrLangs]) {
    if (!/^[A-Za-z_]{2,10}$/.test(l)) issues.push({ loc: ['body', langs.includes(l) ? 'languages' : 'ocr_languages'], msg: `Invalid language code: ${l}`, type: 'value_error', input: l });
  }
  const chosen = langs.length ? langs : ocrLangs;
  if (chosen.length) {
    o.languages = [...new Set(chosen.filter((l) => l.toLowerCase() !== 'auto').map(iso639_3))];
    const tess = [...new Set(chosen.filter((l) => l.toLowerCase() !== 'auto').map(tesseractCode))];
    if (tess.length) o.ocrLanguages = tess;
  }

  o.extractImageBlockTypes = [...new Set(arrayValues(f.get('extract_image_block_types')).map((t) => BLOCK_TYPES[t.toLowerCase()] ?? t))];
  o.skipInferTableTypes = [...new Set(arrayValues(f.get('skip_infer_table_types')).map((t) => t.toLowerCase().replace(/^\./, '')))];

  const provider = scalar('vlm_model_provider')?.trim();
  const model = scalar('vlm_model')?.trim();
  const allowFast = parse('vlm_allow_fast', boolField);
  if (provider || model || allowFast !== undefined || o.strategy === 'vlm') {
    o.vlm = { ...(provider ? { provider: provider.toLowerCase() } : {}), ...(model ? { model } : {}), ...(allowFast !== undefined ? { allowFast } : {}) };
  }

  if (issues.length) throw new ValidationError(issues);
  const contentType = scalar('content_type')?.trim() || undefined;
  const gz = scalar('gz_uncompressed_content_type')?.trim() || undefined;
  return { options: o, outputFormat, ...(contentType ? { contentType } : {}), ...(gz ? { gzUncompressedContentType: gz } : {}) };
}
