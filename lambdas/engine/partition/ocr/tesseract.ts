// Offline OCR with tesseract.js 7: traineddata comes from the @tesseract.js-data/<lang> packages
// (no download, cache off). A small pool (one worker per core, at most 2) is created on first use
// and shut down after a quiet period so it never keeps the process alive for long.
import { existsSync, mkdirSync, rmSync, symlinkSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { log, logContext, withLogContext } from '../../../logger';
import { findWorkerScript } from '../worker-start';

export interface OcrWord {
  text: string;
  confidence: number;
  x0: number; y0: number; x1: number; y1: number;
}
export interface OcrLine {
  words: OcrWord[];
  x0: number; y0: number; x1: number; y1: number;
}
export interface OcrResult {
  lines: OcrLine[];
  /** Mean word confidence (0-100). */
  confidence: number;
}

const require = createRequire(import.meta.url);
const DATA_FOLDER = '4.0.0_best_int';

/** Folder holding `<lang>.traineddata.gz` of an installed @tesseract.js-data package, or undefined. */
function traineddataDir(lang: string): string | undefined {
  try {
    const dir = join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), DATA_FOLDER);
    return existsSync(join(dir, `${lang}.traineddata.gz`)) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Installed languages among the requested ones (always at least eng). */
export function availableOcrLanguages(requested: string[]): { langs: string[]; missing: string[] } {
  const langs: string[] = [];
  const missing: string[] = [];
  for (const l of requested) (traineddataDir(l) ? langs : missing).push(l);
  if (!langs.length) langs.push('eng');
  return { langs: [...new Set(langs)], missing };
}

/** The temp folders of links made by langPathFor: removed when the OCR pools shut down or the process exits. */
const langDirs = new Set<string>();
const removeLangDirs = () => {
  for (const dir of langDirs) rmSync(dir, { recursive: true, force: true });
  langDirs.clear();
};

/** A langPath folder holding every requested language (a temp folder of links when they differ). */
export function langPathFor(langs: string[]): string {
  const dirs = langs.map((l) => traineddataDir(l)!);
  if (langs.length === 1) return dirs[0]!;
  const dir = join(tmpdir(), `tessdata-${process.pid}-${langs.join('+')}`);
  mkdirSync(dir, { recursive: true });
  if (!langDirs.size) process.once('exit', removeLangDirs);
  langDirs.add(dir);
  langs.forEach((l, i) => {
    const target = join(dir, `${l}.traineddata.gz`);
    if (existsSync(target)) return;
    // a dangling link left by an earlier process with this pid (its source tree gone): copying onto it fails
    rmSync(target, { force: true });
    const src = join(dirs[i]!, `${l}.traineddata.gz`);
    try { symlinkSync(src, target); } catch { copyFileSync(src, target); }
  });
  return dir;
}

interface Pool { key: string; workers: Promise<Worker>[]; busy: number[]; queue: (() => void)[] }
const pools = new Map<string, Pool>();
let idleTimer: NodeJS.Timeout | undefined;
const IDLE_MS = 10_000;
const MAX_WORKERS = Math.max(1, Math.min(2, availableParallelism()));

function touchIdle(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    const active = [...pools.values()].some((p) => p.busy.some((b) => b > 0) || p.queue.length);
    if (!active) void shutdownOcr();
  }, IDLE_MS);
  idleTimer.unref();
}

/**
 * tesseract-worker.cjs: tesseract.js's worker with its console sent back as messages (see that
 * file). Beside this module in the source tree, beside the partition worker in a Lambda bundle.
 */
const WORKER_SCRIPT = findWorkerScript(import.meta.url, ['./tesseract-worker.cjs']);

/** What Tesseract printed, as a debug line with the context of the call being served (job_id, file_id). */
interface TesseractLog { status: string; stream?: string; message?: string }
const callContext = new WeakMap<Worker, Record<string, unknown> | undefined>();

function forwardLog(m: TesseractLog, context: Record<string, unknown> | undefined): void {
  if (m.status !== 'log' || !m.message) return;
  const text = m.message.trimEnd();
  withLogContext(context ?? {}, () => log.debug('tesseract', { tesseract: text, stream: m.stream }));
}

async function newWorker(langs: string[]): Promise<Worker> {
  let self: Worker | undefined;
  const w = await createWorker(langs, OEM.LSTM_ONLY, {
    langPath: langPathFor(langs),
    cacheMethod: 'none',
    gzip: true,
    ...(WORKER_SCRIPT ? { workerPath: fileURLToPath(WORKER_SCRIPT) } : {}),
    logger: (m: TesseractLog) => forwardLog(m, self ? callContext.get(self) : undefined),
    errorHandler: () => {},
  });
  self = w;
  // tesseract.js defaults to a single uniform block (PSM 6); full-page segmentation finds text in
  // columns, tables and around pictures.
  await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
  return w;
}

/** Runs `fn` on a pool worker for the language set, creating workers up to MAX_WORKERS. */
async function withWorker<T>(langs: string[], fn: (w: Worker) => Promise<T>): Promise<T> {
  const key = langs.join('+');
  let pool = pools.get(key);
  if (!pool) { pool = { key, workers: [], busy: [], queue: [] }; pools.set(key, pool); }
  const p = pool;
  let idx = p.busy.findIndex((b) => b === 0);
  if (idx < 0 && p.workers.length < MAX_WORKERS) {
    p.workers.push(newWorker(langs));
    p.busy.push(0);
    idx = p.workers.length - 1;
  }
  while (idx < 0) {
    await new Promise<void>((resolve) => p.queue.push(resolve));
    idx = p.busy.findIndex((b) => b === 0);
  }
  p.busy[idx]!++;
  try {
    const w = await p.workers[idx]!;
    callContext.set(w, logContext());
    return await fn(w);
  } catch (err) {
    // A failed worker is replaced next time.
    p.workers[idx] = newWorker(langs);
    p.workers[idx]!.catch(() => {});
    throw err;
  } finally {
    p.busy[idx]!--;
    p.queue.shift()?.();
    touchIdle();
  }
}

/** Recognises an encoded image (PNG, JPEG, TIFF, BMP) and returns lines of words in pixels. */
export async function recognize(image: Uint8Array, langs: string[]): Promise<OcrResult> {
  const buf = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  // TSV output: every word with its block/paragraph/line ids (the JSON block tree drops words
  // Tesseract files under non-text blocks, e.g. inside ruled tables).
  const res = await withWorker(langs, (w) => w.recognize(buf, {}, { tsv: true, text: false, blocks: false }));
  const lines: OcrLine[] = [];
  const byLine = new Map<string, OcrLine>();
  let confSum = 0, n = 0;
  for (const row of (res.data.tsv ?? '').split('\n')) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c.slice(11).join('\t').trim();
    if (!text) continue;
    const [left, top, width, height, conf] = [Number(c[6]), Number(c[7]), Number(c[8]), Number(c[9]), Number(c[10])];
    const word: OcrWord = { text, confidence: conf, x0: left, y0: top, x1: left + width, y1: top + height };
    const key = `${c[2]}.${c[3]}.${c[4]}`;
    let line = byLine.get(key);
    if (!line) {
      line = { words: [], x0: word.x0, y0: word.y0, x1: word.x1, y1: word.y1 };
      byLine.set(key, line);
      lines.push(line);
    }
    line.words.push(word);
    line.x0 = Math.min(line.x0, word.x0); line.y0 = Math.min(line.y0, word.y0);
    line.x1 = Math.max(line.x1, word.x1); line.y1 = Math.max(line.y1, word.y1);
    confSum += conf; n++;
  }
  return { lines, confidence: n ? confSum / n : 0 };
}

/** Installed models for scripts the English model cannot read, tried when a page reads badly. */
const SCRIPT_FALLBACKS = ['kor', 'jpn', 'chi_sim', 'chi_tra', 'ara', 'rus', 'hin', 'tha'];

/**
 * Recognises with the requested languages; when they were not chosen by the caller and many words
 * come out with low confidence, tries again adding the installed models for other scripts and keeps
 * the better reading.
 */
export async function recognizeBest(image: Uint8Array, langs: string[], callerChoseLanguages: boolean): Promise<OcrResult> {
  const first = await recognize(image, langs);
  if (callerChoseLanguages) return first;
  const words = first.lines.flatMap((l) => l.words);
  const low = words.filter((w) => w.confidence < 60).length;
  if (words.length < 10 || low / words.length < 0.15) return first;
  const extra = SCRIPT_FALLBACKS.filter((l) => !langs.includes(l) && traineddataDir(l));
  if (!extra.length) return first;
  const second = await recognize(image, [...extra, ...langs]);
  return second.confidence > first.confidence + 5 ? second : first;
}

/** Terminates every OCR worker (tests, benches and shutdown hooks call this). */
export async function shutdownOcr(): Promise<void> {
  if (idleTimer) { clearTimeout(idleTimer); idleTimer = undefined; }
  const all = [...pools.values()];
  pools.clear();
  // before any await: a pool started from here on makes its folder again (workers read it only while starting)
  removeLangDirs();
  await Promise.all(all.flatMap((p) => p.workers.map((w) => w.then((x) => x.terminate()).catch(() => {}))));
}
