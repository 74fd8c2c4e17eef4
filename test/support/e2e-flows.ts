// The scaffolding the end-to-end destination and source files share, through the HTTP API of a
// running stack: the two corpus files as a local source, the standard pipeline (partition, chunk,
// built-in 384-dim embedder), create a connector, run its connection check to the end, create a
// workflow, run it to the end, run it twice comparing per-file tallies (one copy of each file).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, NEEDS_LOCAL, startTestStack, type TestStack } from './local-stack';
import { trustStandIns } from './stand-in-ca';

export const CORPUS_DOCS = resolve(process.cwd(), '../shared/corpus/docs');

/** The two files every run reads: fake-text.txt and sub/README.md. */
export const INPUT_FILES = ['README.md', 'fake-text.txt'];

/** partition (fast) → chunk_by_title (500) → the built-in 384-dim embedder. */
export const EMBED_NODES = [
  { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
  { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
  { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_name: 'builtin-hashed-char-ngrams-384' } },
];

/** Copies the two input files into `inDir` (README.md one folder down). */
export function stageInput(inDir: string): void {
  mkdirSync(join(inDir, 'sub'), { recursive: true });
  copyFileSync(join(CORPUS_DOCS, 'fake-text.txt'), join(inDir, 'fake-text.txt'));
  copyFileSync(join(CORPUS_DOCS, 'README.md'), join(inDir, 'sub', 'README.md'));
}

/** Per-file counts of items. */
export function tally<T>(items: T[], fileOf: (x: T) => unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of items) out[String(fileOf(x))] = (out[String(fileOf(x))] ?? 0) + 1;
  return out;
}

/**
 * The steps, bound to a stack and a source made in `before` (hence the getters). `check` runs a
 * destination's connection check by default, a source's with kind 'sources'.
 */
export function e2eFlows(stackOf: () => TestStack, sourceOf: () => string = () => '') {
  async function createDestination(name: string, type: string, config: Record<string, unknown>, secretFields: string | string[] = []): Promise<string> {
    const dest = await stackOf().call('POST', '/api/v1/destinations/', { body: { name, type, config } });
    assert.equal(dest.status, 200, dest.text);
    for (const f of [secretFields].flat()) assert.equal(dest.body.config[f], '**********', f);
    return dest.body.id as string;
  }

  async function check(id: string, kind: 'destinations' | 'sources' = 'destinations') {
    const stack = stackOf();
    await stack.call('POST', `/api/v1/${kind}/${id}/connection-check`);
    return eventually(async () => {
      const r = await stack.call('GET', `/api/v1/${kind}/${id}/connection-check`);
      return r.body.status !== 'SCHEDULED' ? r.body : undefined;
    }, 'connection check');
  }

  /** Creates a destination (secrets masked) whose connection check must be a SUCCESS; its id. */
  async function connect(name: string, type: string, config: Record<string, unknown>, secretFields: string | string[] = []): Promise<string> {
    const id = await createDestination(name, type, config, secretFields);
    const c = await check(id);
    assert.equal(c.status, 'SUCCESS', c.reason);
    return id;
  }

  async function workflow(name: string, destinationId: string, workflowNodes: unknown[] = EMBED_NODES, sourceId = sourceOf(), reprocessAll = true): Promise<string> {
    const wf = await stackOf().call('POST', '/api/v1/workflows/', {
      body: { name, workflow_type: 'custom', ...(reprocessAll ? { reprocess_all: true } : {}), workflow_nodes: workflowNodes, source_id: sourceId, destination_id: destinationId },
    });
    assert.equal(wf.status, 200, wf.text);
    return wf.body.id;
  }

  async function runToEnd(workflowId: string, timeoutMs = 180_000) {
    const stack = stackOf();
    const run = await stack.call('POST', `/api/v1/workflows/${workflowId}/run`);
    assert.equal(run.status, 202, run.text);
    return eventually(async () => {
      const r = await stack.call('GET', `/api/v1/jobs/${run.body.id}`);
      return ['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status) ? r.body : undefined;
    }, 'workflow job', timeoutMs);
  }

  /** Runs the workflow to the end; the job and its details (per-file, per-node outcomes). */
  async function runWithDetails(workflowId: string) {
    const job = await runToEnd(workflowId);
    return { job, details: (await stackOf().call('GET', `/api/v1/jobs/${job.id}/details`)).body };
  }

  /** Runs the workflow to the end, which must be COMPLETED; the job and its details. */
  async function runCompleted(workflowId: string) {
    const r = await runWithDetails(workflowId);
    assert.equal(r.job.status, 'COMPLETED', JSON.stringify(r.job));
    return r;
  }

  /** Runs the workflow twice, each run COMPLETED; what `measure` read after each run. */
  async function runTwice<T>(workflowId: string, measure: () => T | Promise<T>): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < 2; i++) {
      const job = await runToEnd(workflowId);
      assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
      out.push(await measure());
    }
    return out;
  }

  /** Runs the workflow twice; the per-file record counts after each run must be equal (one copy). */
  async function twice(workflowId: string, countByFile: () => Record<string, number> | Promise<Record<string, number>>, files = INPUT_FILES) {
    const counts = await runTwice(workflowId, countByFile);
    assert.deepEqual(Object.keys(counts[0]!).sort(), files);
    for (const n of Object.values(counts[0]!)) assert.ok(n >= 1);
    assert.deepEqual(counts[1], counts[0], 'the second run replaced each file, not duplicated it');
  }

  /**
   * Destinations that validate but point nowhere: each one's check is a FAILURE with the store's reason,
   * its job (partition and chunk only by default: the failure under test is the destination's) FAILED
   * with both files failed for that reason (or `fileReason`), no secret in any of it, and no job left
   * running. `secretFields`: the config's fields the API must mask.
   */
  async function pointNowhere(cases: { type: string; config: Record<string, unknown>; secret: string; reason: RegExp; fileReason?: RegExp; secretFields?: string[] }[], nodes: unknown[] = EMBED_NODES.slice(0, 2)) {
    const stack = stackOf();
    for (const k of cases) {
      const destId = await createDestination(`${k.type}-nowhere`, k.type, k.config, k.secretFields);
      const c = await check(destId);
      assert.equal(c.status, 'FAILURE', k.type);
      assert.match(c.reason, k.reason);
      assert.ok(!c.reason.includes(k.secret), 'no secret in the reason');
      const job = await runToEnd(await workflow(`${k.type}-nowhere`, destId, nodes));
      assert.equal(job.status, 'FAILED', k.type);
      const failed = await failedFiles(stack, job.id);
      assert.equal(failed.length, 2);
      for (const f of failed) {
        assert.match(f.error, new RegExp(`${k.type} destination: `));
        assert.match(f.error, k.fileReason ?? k.reason);
        assert.ok(!f.error.includes(k.secret));
      }
    }
    // The failed jobs released their run slots.
    await assertNoJobRunning(stack);
  }

  /**
   * A destination that validates but cannot be written: its check is a FAILURE whose reason matches
   * `checkReason` (without `secret`), the workflow's job (through `nodes`, no reprocess_all) FAILED
   * with both files failed matching `fileError`, and a second run of it starts and ends FAILED too
   * (the first one freed its slot).
   */
  async function failsAndFreesSlot(k: { name: string; type: string; config: Record<string, unknown>; nodes: unknown[]; checkReason: RegExp; secret?: string; fileError: RegExp }) {
    const id = await createDestination(k.name, k.type, k.config);
    const c = await check(id);
    assert.equal(c.status, 'FAILURE');
    assert.match(c.reason, k.checkReason);
    if (k.secret !== undefined) assert.ok(!c.reason.includes(k.secret), 'no secret in the reason');
    const wf = await workflow(`to-${k.name}`, id, k.nodes, sourceOf(), false);
    const job = await runToEnd(wf);
    assert.equal(job.status, 'FAILED');
    const failed = await failedFiles(stackOf(), job.id);
    assert.equal(failed.length, 2);
    for (const f of failed) assert.match(f.error, k.fileError);
    const again = await runToEnd(wf);
    assert.equal(again.status, 'FAILED', 'the slot was freed: another run starts and finishes');
  }

  return { createDestination, connect, check, workflow, runToEnd, runWithDetails, runCompleted, runTwice, twice, pointNowhere, failsAndFreesSlot };
}

/**
 * A row written with flattened metadata for fake-text.txt's first element: a 384-dim embedding, a
 * CompositeElement, text/plain, English, with its record id, element id and text.
 */
export function assertSampleRow(sample: Record<string, any>): void {
  assert.equal(sample.embeddings.length, 384);
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.filetype, 'text/plain');
  assert.deepEqual(sample.languages, ['eng']);
  assert.ok(sample.record_id && sample.element_id && String(sample.text).length > 0);
}

/**
 * Documents with nested metadata (a search index's): exactly the two input files, one record_id per
 * file, 384-dim embeddings, and fake-text.txt's first document a CompositeElement, text/plain,
 * English, with its text and element id.
 */
export function assertDocsByFile(docs: Iterable<any>): void {
  const byFile = new Map<string, any[]>();
  for (const d of docs) byFile.set(d.metadata.filename, [...(byFile.get(d.metadata.filename) ?? []), d]);
  assert.deepEqual([...byFile.keys()].sort(), INPUT_FILES);
  for (const list of byFile.values()) {
    assert.equal(new Set(list.map((d) => d.record_id)).size, 1, 'one record_id per file');
    assert.ok(list.every((d) => d.embeddings.length === 384));
  }
  const sample = byFile.get('fake-text.txt')![0]!;
  assert.equal(sample.type, 'CompositeElement');
  assert.equal(sample.metadata.filetype, 'text/plain');
  assert.deepEqual(sample.metadata.languages, ['eng']);
  assert.ok(sample.text.length > 0 && sample.element_id);
}

/** A finished job's failed files (the listing must answer 200). */
export async function failedFiles(stack: TestStack, jobId: string): Promise<{ error: string; [k: string]: unknown }[]> {
  const failed = await stack.call('GET', `/api/v1/jobs/${jobId}/failed-files`);
  assert.equal(failed.status, 200);
  return failed.body.failed_files;
}

/** No job is left in progress: failed jobs released their run slots. */
export async function assertNoJobRunning(stack: TestStack): Promise<void> {
  const running = await stack.call('GET', '/api/v1/jobs/?status=IN_PROGRESS');
  assert.equal(running.status, 200, running.text);
  assert.deepEqual(running.body, []);
}

/** A fresh temporary folder's `in` (not made yet: stageInput makes it). */
export function inputDir(prefix: string): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), 'in');
}

/** Creates a local source reading `dir`; its id. */
export async function localSource(stack: TestStack, dir: string): Promise<string> {
  return (await stack.call('POST', '/api/v1/sources/', { body: { name: 'in', type: 'local', config: { remote_url: dir } } })).body.id;
}

/**
 * The before/after of a destination file (skipped against a remote stack): stage the two input
 * files in a temporary folder named by `prefix`, trust the stand-ins' certificate if `trust`, `start`
 * the file's stand-ins, start the stack, then `ready` (seeding it), and make a local source of the
 * input; after: close the stack, `stop` the stand-ins, drop the trust. Gives the stack (once started)
 * and the flows bound to it and that source.
 */
export function destinationSuite(prefix: string, hooks: { trust?: boolean; start?: () => unknown; ready?: (stack: TestStack) => unknown; stop?: () => unknown }) {
  const inDir = inputDir(prefix);
  let stack: TestStack | undefined;
  let sourceId = '';
  let untrust: (() => void) | undefined;
  before(async () => {
    if (NEEDS_LOCAL) return;
    stageInput(inDir);
    if (hooks.trust) untrust = trustStandIns();
    await hooks.start?.();
    stack = await startTestStack();
    await hooks.ready?.(stack);
    sourceId = await localSource(stack, inDir);
  });
  after(async () => {
    await stack?.close();
    await hooks.stop?.();
    untrust?.();
  });
  const flows = e2eFlows(() => stack!, () => sourceId);
  return {
    ...flows,
    inDir,
    /** The running stack (inside tests). */
    get stack(): TestStack {
      return stack!;
    },
    get sourceId(): string {
      return sourceId;
    },
  };
}
