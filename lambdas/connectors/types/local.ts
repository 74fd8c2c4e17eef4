// Local filesystem source and destination (type `local`; not an upstream type, used by `npm start`
// and tests). Config: remote_url (file:///abs/dir or a path) or path, naming a directory; sources also
// take recursive (default true).
//
// Containment: when LOCAL_CONNECTOR_ROOT is set, every directory must lie inside it (relative paths
// are resolved against it; symlinks are resolved before the comparison). Inside AWS Lambda without
// LOCAL_CONNECTOR_ROOT the type is refused, so nobody reads the function's own files or /proc.
import { constants as FS } from 'node:fs';
import { access, mkdir, readFile, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { assertSafeKey, defineConnector, describeError, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { inputSchema, outputSchema, type FieldSpec } from '../schema';

const COMMON: FieldSpec[] = [
  { name: 'remote_url', type: 'string', required: false, requiredInResponse: false },
  { name: 'path', type: 'string', required: false, requiredInResponse: false },
];
const SOURCE_FIELDS: FieldSpec[] = [
  ...COMMON,
  { name: 'recursive', type: 'boolean', required: false, default: true, requiredInResponse: true },
];

export interface LocalConfig extends ConnectorConfig {
  remote_url?: string | null;
  path?: string | null;
  recursive?: boolean;
}

function allowedRoot(): string | undefined {
  const root = process.env.LOCAL_CONNECTOR_ROOT;
  return root ? resolve(root) : undefined;
}

function within(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The configured directory as an absolute path (lexical; symlinks are checked at use). */
export function localDirectory(c: LocalConfig): string {
  const raw = (c.remote_url || c.path || '').trim();
  if (!raw) throw new Error('remote_url or path is required');
  let p: string;
  if (/^file:\/\//i.test(raw)) p = fileURLToPath(raw);
  else if (/^local:\/\//i.test(raw)) p = raw.slice('local://'.length);
  else p = raw;
  const root = allowedRoot();
  if (!root && process.env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new Error('local connectors are disabled in this deployment (LOCAL_CONNECTOR_ROOT is not set)');
  }
  if (!isAbsolute(p)) {
    if (!root) throw new Error(`path ${JSON.stringify(raw)} must be absolute`);
    p = resolve(root, p);
  }
  p = resolve(p);
  if (root && !within(root, p)) throw new Error(`path ${JSON.stringify(raw)} is outside the allowed root LOCAL_CONNECTOR_ROOT`);
  return p;
}

/** Resolves symlinks of the directory (or of its nearest existing parent) and re-checks the root. */
async function containedReal(p: string): Promise<string> {
  const root = allowedRoot();
  if (!root) return p;
  const realRoot = await realpath(root).catch(() => root);
  let probe = p;
  let suffix = '';
  for (;;) {
    try {
      const real = join(await realpath(probe), suffix);
      if (!within(realRoot, real)) throw new Error('path resolves outside the allowed root LOCAL_CONNECTOR_ROOT');
      return real;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const parent = dirname(probe);
      if (parent === probe) return p;
      suffix = join(probe.slice(parent.length + 1), suffix);
      probe = parent;
    }
  }
}

function refine(schema: z.ZodType<ConnectorConfig>): z.ZodType<LocalConfig> {
  return schema.superRefine((c, ctx) => {
    if (!c.remote_url && !c.path) {
      ctx.addIssue({ code: 'custom', path: ['remote_url'], message: 'Field required (remote_url or path)' });
      return;
    }
    try {
      localDirectory(c as LocalConfig);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: [c.remote_url ? 'remote_url' : 'path'], message: describeError(err).replace(/^Error: /, '') });
    }
  }) as unknown as z.ZodType<LocalConfig>;
}

async function fileIn(c: LocalConfig, key: string): Promise<string> {
  const dir = await containedReal(localDirectory(c));
  const file = resolve(dir, ...assertSafeKey(key).split('/'));
  if (!within(dir, file)) throw new Error(`invalid object key ${JSON.stringify(key)}`);
  return containedReal(file);
}

async function* walk(dir: string, base: string, recursive: boolean, signal?: AbortSignal): AsyncIterable<SourceObject> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    signal?.throwIfAborted();
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive) yield* walk(full, base, recursive, signal);
    } else if (e.isFile()) {
      const s = await stat(full);
      yield { key: relative(base, full).split(sep).join('/'), size: s.size };
    }
  }
}

async function checkDirectory(c: LocalConfig, mode: number): Promise<void> {
  const dir = await containedReal(localDirectory(c));
  let s;
  try {
    s = await stat(dir);
  } catch (err) {
    throw new Error(`directory ${dir} is not accessible: ${(err as NodeJS.ErrnoException).code ?? describeError(err)}`);
  }
  if (!s.isDirectory()) throw new Error(`${dir} is not a directory`);
  try {
    await access(dir, mode);
  } catch {
    throw new Error(`directory ${dir} is not ${mode & FS.W_OK ? 'writable' : 'readable'}`);
  }
}

export const localSource = defineConnector<LocalConfig>({
  kind: 'source',
  type: 'local',
  input: refine(inputSchema(SOURCE_FIELDS)),
  output: outputSchema(SOURCE_FIELDS),
  secretFields: [],
  async check(c) {
    await checkDirectory(c, FS.R_OK | FS.X_OK);
  },
  async *list(c, ctx?: RuntimeContext) {
    const dir = await containedReal(localDirectory(c));
    yield* walk(dir, dir, c.recursive !== false, ctx?.signal);
  },
  async read(c, key) {
    return new Uint8Array(await readFile(await fileIn(c, key)));
  },
});

export const localDestination = defineConnector<LocalConfig>({
  kind: 'destination',
  type: 'local',
  input: refine(inputSchema(COMMON)),
  output: outputSchema(COMMON),
  secretFields: [],
  async check(c) {
    await checkDirectory(c, FS.W_OK | FS.X_OK);
  },
  async write(c, key, data) {
    const file = await fileIn(c, key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, data);
  },
});
