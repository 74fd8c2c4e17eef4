// Local filesystem source and destination (type `local`; not an upstream type, used by `npm start`
// and tests). Config: remote_url (file:///abs/dir or a path) or path, naming a directory; sources also
// take recursive (default true).
//
// Containment (the service's own files are never reachable, DESIGN §9):
// - The data directory (DATA_DIR, default .data: secrets.key, the emulators' data) is refused in every
//   mode, except its connector-files folder; so is SECRETS_KEY_FILE wherever it lives. Symlinks are
//   resolved before every check, and listings skip what lies in the data directory.
// - The root: LOCAL_CONNECTOR_ROOT when set (refused if it is, contains or lies in the data directory
//   outside connector-files); else in AUTH_MODE=keyed <DATA_DIR>/connector-files; else (a private
//   `none` deployment) any other absolute path. In keyed mode every account gets its own folder
//   under the root (<root>/<account id>, created on demand) and reaches nothing else: the calling
//   account comes from connectors/tenant.ts. Relative paths resolve against the root.
// - Inside AWS Lambda the type does not exist (a function's filesystem holds no tenant files).
// - No error shows a server path: messages name the directory as the tenant configured it and keys
//   relative to it; file-system errors (ENOENT and the like quote absolute paths) are rewritten so.
import { constants as FS } from 'node:fs';
import { access, mkdir, readFile, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { assertSafeKey, defineConnector, describeError, fileObject, type ConnectorConfig, type RuntimeContext, type SourceObject } from '../definition';
import { fieldsShape, RECURSIVE_FIELD, type FieldSpec } from '../schema';
import { currentAccountId } from '../tenant';

const COMMON: FieldSpec[] = [
  { name: 'remote_url', type: 'string', required: false, requiredInResponse: false },
  { name: 'path', type: 'string', required: false, requiredInResponse: false },
];
const SOURCE_FIELDS: FieldSpec[] = [...COMMON, RECURSIVE_FIELD];

export interface LocalConfig extends ConnectorConfig {
  remote_url?: string | null;
  path?: string | null;
  recursive?: boolean;
}

/** Why the type cannot be used in this runtime, or undefined. */
export function localUnavailable(): string | undefined {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) {
    return "the local connector type is not available on AWS (a function's filesystem holds no tenant files); use s3 or azure";
  }
  return undefined;
}

function dataDir(): string {
  return resolve(process.env.DATA_DIR || '.data');
}

/** The one folder of the data directory connectors may use. */
export function connectorFolder(): string {
  return join(dataDir(), 'connector-files');
}

function within(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Why a (resolved) path is off limits as service data, or undefined; `shown` is the tenant's own name for it. */
function serviceDataProblem(p: string, data: string, folder: string, keyFile: string | undefined, shown: string): string | undefined {
  if (keyFile && p === keyFile) return `${JSON.stringify(shown)} is the service's secrets key, which connectors may not reach`;
  if (within(data, p) && !within(folder, p)) return `path ${JSON.stringify(shown)} is inside the service's data directory, which connectors may not reach (only its connector-files folder)`;
  return undefined;
}

function lexicalProblem(p: string, shown: string = p): string | undefined {
  return serviceDataProblem(p, dataDir(), connectorFolder(), process.env.SECRETS_KEY_FILE ? resolve(process.env.SECRETS_KEY_FILE) : undefined, shown);
}

/** The configured directory as the tenant wrote it: the only name of it its messages show. */
function shownDir(c: LocalConfig): string {
  return (c.remote_url || c.path || '').trim();
}

/** An account's folder name: the id itself when it is a plain name, else a hash of it. */
export function accountFolderName(accountId: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(accountId) && accountId !== '..' ? accountId : `acct-${createHash('sha256').update(accountId).digest('hex').slice(0, 32)}`;
}

/**
 * The root every path must lie in (undefined: any path outside the data directory). In keyed mode
 * every account has its own folder under the root, so one tenant never reaches another's files.
 */
function allowedRoot(): string | undefined {
  const configured = process.env.LOCAL_CONNECTOR_ROOT;
  let base: string | undefined;
  if (configured) {
    base = resolve(configured);
    if (within(base, dataDir()) || lexicalProblem(base)) {
      // -- tenants read this message: the operator's paths stay out of it --
      throw new Error("the deployment's LOCAL_CONNECTOR_ROOT is, holds or lies in the service's data directory; its operator must choose a folder outside it (or leave it unset)");
    }
  } else if (process.env.AUTH_MODE === 'keyed') base = connectorFolder();
  if (process.env.AUTH_MODE !== 'keyed') return base;
  const accountId = currentAccountId();
  if (!accountId) throw new Error('local connectors need the calling account in keyed mode');
  return join(base!, accountFolderName(accountId));
}

/** The configured directory as an absolute path (lexical; symlinks are checked at use). */
export function localDirectory(c: LocalConfig): string {
  const unavailable = localUnavailable();
  if (unavailable) throw new Error(unavailable);
  const raw = (c.remote_url || c.path || '').trim();
  if (!raw) throw new Error('remote_url or path is required');
  let p: string;
  if (/^file:\/\//i.test(raw)) p = fileURLToPath(raw);
  else if (/^local:\/\//i.test(raw)) p = raw.slice('local://'.length);
  else p = raw;
  const root = allowedRoot();
  if (!isAbsolute(p)) {
    if (!root) throw new Error(`path ${JSON.stringify(raw)} must be absolute`);
    p = resolve(root, p);
  }
  p = resolve(p);
  if (root && !within(root, p)) {
    throw new Error(`path ${JSON.stringify(raw)} is outside the allowed root (${process.env.AUTH_MODE === 'keyed' ? "the account's own folder" : 'LOCAL_CONNECTOR_ROOT'})`);
  }
  const problem = lexicalProblem(p, raw);
  if (problem) throw new Error(problem);
  return p;
}

async function real(p: string): Promise<string> {
  return realpath(p).catch(() => p);
}

/**
 * Resolves symlinks of a path (or of its nearest existing parent) and re-checks it against the root
 * and the data directory, both resolved too. The default connector folder is created on demand.
 */
async function containedReal(p: string, shown: string): Promise<string> {
  const root = allowedRoot();
  if (root && (process.env.AUTH_MODE === 'keyed' || !process.env.LOCAL_CONNECTOR_ROOT)) await mkdir(root, { recursive: true });
  const realRoot = root ? await real(root) : undefined;
  const data = await real(dataDir());
  const folder = join(data, basename(connectorFolder()));
  const keyFile = process.env.SECRETS_KEY_FILE ? await real(resolve(process.env.SECRETS_KEY_FILE)) : undefined;
  let probe = p;
  let suffix = '';
  for (;;) {
    let resolved: string;
    try {
      resolved = join(await realpath(probe), suffix);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const parent = dirname(probe);
      if (parent === probe) return p;
      suffix = join(probe.slice(parent.length + 1), suffix);
      probe = parent;
      continue;
    }
    if (realRoot && !within(realRoot, resolved)) throw new Error(`path ${JSON.stringify(shown)} resolves outside the allowed root`);
    const problem = serviceDataProblem(resolved, data, folder, keyFile, shown);
    if (problem) throw new Error(problem);
    return resolved;
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
  const dir = await containedReal(localDirectory(c), shownDir(c));
  const file = resolve(dir, ...assertSafeKey(key).split('/'));
  if (!within(dir, file)) throw new Error(`invalid object key ${JSON.stringify(key)}`);
  return containedReal(file, `${shownDir(c).replace(/\/+$/, '')}/${key}`);
}

/**
 * An error as the tenant may see it: a file-system error (its message quotes the absolute path)
 * becomes `<what>: <code> (<description>)`; any other message has the server's directories (the
 * configured one, resolved, the account root, the data directory) replaced by the tenant's names.
 */
function tenantError(err: unknown, c: LocalConfig, what: string): Error {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && typeof e.syscall === 'string') {
    const description = (e.message ?? '').replace(/^[A-Z]+:\s*/, '').split(',')[0];
    return new Error(`${what}: ${e.code}${description ? ` (${description})` : ''}`);
  }
  const message = describeError(err).replace(/^Error: /, '');
  const scrubbed = scrubServerPaths(message, c);
  // -- nothing to hide: the error itself goes on (an abort stays an abort) --
  return scrubbed === message && err instanceof Error ? err : new Error(scrubbed);
}

/** The message with every server directory this connector knows replaced by the tenant's name for it. */
function scrubServerPaths(message: string, c: LocalConfig): string {
  const shown = shownDir(c);
  const pairs: [string, string][] = [];
  try {
    pairs.push([localDirectory(c), shown]);
  } catch {
    // -- no directory to name --
  }
  try {
    const root = allowedRoot();
    if (root) pairs.push([root, process.env.AUTH_MODE === 'keyed' ? "<the account's folder>" : '<LOCAL_CONNECTOR_ROOT>']);
  } catch {
    // -- no root --
  }
  pairs.push([dataDir(), '<data directory>']);
  let out = message;
  for (const [abs, name] of pairs.sort((a, b) => b[0].length - a[0].length)) if (abs.length > 1) out = out.split(abs).join(name);
  return out;
}

/** Runs a file-system step, its errors in the tenant's terms. */
async function asTenant<T>(c: LocalConfig, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw tenantError(err, c, what);
  }
}

async function* walk(dir: string, base: string, recursive: boolean, displayRoot: string, signal?: AbortSignal): AsyncIterable<SourceObject> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    signal?.throwIfAborted();
    const full = join(dir, e.name);
    // A directory above the data directory lists around it: its files are never offered.
    if (lexicalProblem(full) && !within(full, connectorFolder())) continue;
    if (e.isDirectory()) {
      if (recursive) yield* walk(full, base, recursive, displayRoot, signal);
    } else if (e.isFile()) {
      const s = await stat(full, { bigint: true });
      // Size and nanosecond modification time: a rewritten file changes at least one of them.
      const key = relative(base, full).split(sep).join('/');
      const version = `${s.size}-${s.mtimeNs}`;
      // the path as the user configured it (not the resolved data directory of keyed mode)
      const shown = `${displayRoot.replace(/\/+$/, '')}/${key}`;
      yield fileObject({
        key,
        size: Number(s.size),
        version,
        url: shown,
        recordLocator: { path: shown },
        created: Number(s.birthtimeMs) || Number(s.ctimeMs),
        modified: Number(s.mtimeMs),
      });
    }
  }
}

async function checkDirectory(c: LocalConfig, mode: number): Promise<void> {
  const shown = JSON.stringify(shownDir(c));
  const dir = await asTenant(c, `directory ${shown}`, async () => containedReal(localDirectory(c), shownDir(c)));
  let s;
  try {
    s = await stat(dir);
  } catch (err) {
    throw new Error(`directory ${shown} is not accessible: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (!s.isDirectory()) throw new Error(`${shown} is not a directory`);
  try {
    await access(dir, mode);
  } catch {
    throw new Error(`directory ${shown} is not ${mode & FS.W_OK ? 'writable' : 'readable'}`);
  }
}

export const localSource = defineConnector<LocalConfig>({
  kind: 'source',
  type: 'local',
  ...fieldsShape(SOURCE_FIELDS, refine),
  unavailable: localUnavailable,
  async check(c) {
    await checkDirectory(c, FS.R_OK | FS.X_OK);
  },
  async *list(c, ctx?: RuntimeContext) {
    const what = `cannot list ${JSON.stringify(shownDir(c))}`;
    const dir = await asTenant(c, what, () => containedReal(localDirectory(c), shownDir(c)));
    try {
      yield* walk(dir, dir, c.recursive !== false, shownDir(c), ctx?.signal);
    } catch (err) {
      throw tenantError(err, c, what);
    }
  },
  async read(c, key) {
    return asTenant(c, `cannot read ${JSON.stringify(key)} in ${JSON.stringify(shownDir(c))}`, async () => new Uint8Array(await readFile(await fileIn(c, key))));
  },
});

export const localDestination = defineConnector<LocalConfig>({
  kind: 'destination',
  type: 'local',
  ...fieldsShape(COMMON, refine),
  unavailable: localUnavailable,
  async check(c) {
    await checkDirectory(c, FS.W_OK | FS.X_OK);
  },
  async write(c, key, data) {
    await asTenant(c, `cannot write ${JSON.stringify(key)} in ${JSON.stringify(shownDir(c))}`, async () => {
      const file = await fileIn(c, key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, data);
    });
  },
});
