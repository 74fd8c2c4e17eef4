// Connector registry: lookup, config validation (422 items), response projection with masked
// secrets, connection checks with a time bound, and the runtime operations jobs use.
//
// Secrets: every present credential is replaced by SECRET_MASK ("**********") in responses, whatever
// its length, so nothing of the clear value leaks. What is a credential is decided in one place,
// lambdas/credentials.ts: the type's schema (its secret fields), and for what the schema does not
// type (free-form configs, extra keys, nested maps) key names and the values themselves (URLs with
// userinfo or a query token, bearer values, known token shapes). A field holding one is a secret
// field of that config: sealed at rest, masked (shape kept) in responses; 422 items and check
// reasons have its text scrubbed. A client that reads a connector and PUTs the config back unchanged
// sends the masked form: mergeSecrets() restores the stored value for every field that still holds
// it, so an update never overwrites a secret with the mask. A mask left in a config given to
// validateConfig (create, or update without a stored value) is a 422.
import { BadRequest, ValidationError, type ValidationIssue } from '../errors';
import {
  CONNECTOR_KINDS,
  SECRET_MASK,
  describeError,
  type ConnectorConfig,
  type ConnectorDefinition,
  type ConnectorKind,
  type RuntimeContext,
  type SourceObject,
} from './definition';
import { toValidationIssues } from './schema';
import { documentRecordId } from './records/ids';
import type { ElementRecord, UploadContext, UploadResult } from './records/types';
import { CREDENTIAL_NAME } from '../credential-names';
import { credentialFields, credentialTexts, isMaskedFormOf, maskConfig, maskField, maskValue, scrubText, type MaskRules } from '../credentials';
import { CONNECTOR_DEFINITIONS } from './types/index';

export { SECRET_MASK, CONNECTOR_KINDS };
export type { ConnectorConfig, ConnectorDefinition, ConnectorKind, SourceObject, RuntimeContext };

export type ConnectionCheckStatus = 'SUCCESS' | 'FAILURE';
export interface ConnectionCheckResult {
  status: ConnectionCheckStatus;
  reason?: string;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

const BY_KEY = new Map<string, ConnectorDefinition>();
for (const def of CONNECTOR_DEFINITIONS) {
  const k = `${def.kind}:${def.type}`;
  if (BY_KEY.has(k)) throw new Error(`connector ${k} is defined twice`);
  BY_KEY.set(k, def);
}

/** The definition of a connector type, or undefined for an unknown type. */
export function getConnector(kind: ConnectorKind, type: string): ConnectorDefinition | undefined {
  return BY_KEY.get(`${kind}:${type}`);
}

/** Registered types of a kind, sorted. */
export function listTypes(kind: ConnectorKind): string[] {
  return CONNECTOR_DEFINITIONS.filter((d) => d.kind === kind)
    .map((d) => d.type)
    .sort();
}

/**
 * The definition, or a 422 at `loc` (default ['body','type']) naming the allowed values, as FastAPI
 * reports an enum mismatch. Use it for the create body's `type` and the list filter's query value.
 */
export function requireConnector(kind: ConnectorKind, type: unknown, loc: (string | number)[] = ['body', 'type']): ConnectorDefinition {
  const def = typeof type === 'string' ? getConnector(kind, type) : undefined;
  if (def) return def;
  const allowed = listTypes(kind).map((t) => `'${t}'`);
  const msg = `Input should be ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
  throw new ValidationError([{ loc, msg, type: 'enum', ...(type !== undefined ? { input: type } : {}) }]);
}

/**
 * Parses a create/update `config` for the type: required fields, patterns, minimums, defaults applied,
 * extra keys kept. Throws ValidationError with items like
 * `{loc:['body','config','remote_url'], msg:'Field required', type:'missing'}`.
 * An unknown type is reported at the sibling `type` of `loc`.
 */
export function validateConfig(kind: ConnectorKind, type: string, config: unknown, loc: (string | number)[] = ['body', 'config']): ConnectorConfig {
  const def = requireConnector(kind, type, [...loc.slice(0, -1), 'type']);
  const unavailable = def.unavailable?.();
  if (unavailable) throw ValidationError.single([...loc.slice(0, -1), 'type'], unavailable, 'value_error', type);
  const parsed = def.input.safeParse(config);
  if (!parsed.success) throw new ValidationError(withoutSecretInputs(kind, type, config, toValidationIssues(parsed.error.issues, config, loc), loc.length));
  const masked: ValidationIssue[] = [];
  for (const f of secretFields(kind, type, parsed.data)) {
    if (parsed.data[f] === SECRET_MASK) {
      masked.push({ loc: [...loc, f], msg: 'the masked value cannot be stored; send the secret itself', type: 'value_error' });
    }
  }
  if (masked.length) throw new ValidationError(masked);
  return parsed.data;
}

/** The fields the type's input schema names (a zod object's shape); empty for free-form types. */
function schemaFieldNames(def: ConnectorDefinition): string[] {
  if (def.freeForm) return [];
  const shape = (def.input as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

function maskRules(def: ConnectorDefinition | undefined): MaskRules {
  return def ? { secretFields: def.secretFields, schemaFields: schemaFieldNames(def) } : {};
}

/**
 * Names of the secret fields of a type (what the store encrypts at rest): the schema's secret fields,
 * and, given the config, every other field that holds a credential (lambdas/credentials.ts: by name
 * where the schema does not type the field, by value everywhere).
 */
export function secretFields(kind: ConnectorKind, type: string, config?: ConnectorConfig): string[] {
  const def = getConnector(kind, type);
  if (!def) return [];
  const declared = def.freeForm ? [] : [...def.secretFields];
  if (!config) return declared;
  return [...new Set([...declared, ...credentialFields(config, maskRules(def))])];
}

/**
 * 422 items echo the offending value as `input`; a secret's value (a password in a uri that fails its
 * pattern, a key of the wrong type) must never come back: it is masked, and a whole config echoed at
 * the config's own level is masked field by field. A message quoting part of a credential (a bucket
 * name parsed out of a URL with userinfo) has it replaced by the mask.
 */
function withoutSecretInputs(kind: ConnectorKind, type: string, config: unknown, items: ValidationIssue[], depth: number): ValidationIssue[] {
  const isObject = config !== null && typeof config === 'object' && !Array.isArray(config);
  const secrets = new Set(secretFields(kind, type, isObject ? (config as ConnectorConfig) : undefined));
  const rules = maskRules(getConnector(kind, type));
  const texts = credentialTexts(config, rules);
  return items.map((raw) => {
    const item = texts.length ? { ...raw, msg: scrubText(raw.msg, texts) } : raw;
    if (!('input' in item)) return item;
    const path = item.loc.slice(depth).map(String);
    if (path.length === 0) return { ...item, input: isObject ? maskSecrets(kind, type, config as ConnectorConfig) : item.input };
    if (secrets.has(path[0]!) || path.some((p) => CREDENTIAL_NAME.test(p))) return { ...item, input: SECRET_MASK };
    const input = path.length === 1 ? maskField(path[0]!, item.input, rules) : maskValue(path[path.length - 1], item.input);
    return { ...item, input };
  });
}

/** A copy of the config with every present credential masked, shape kept (null/absent stay so). */
export function maskSecrets(kind: ConnectorKind, type: string, config: ConnectorConfig): ConnectorConfig {
  return maskConfig(config, maskRules(getConnector(kind, type)));
}

/**
 * The config as a response shows it: the output shape (defaults of fields that are always present,
 * output-only omissions such as astradb flatten_metadata) with secrets masked. Never throws.
 */
export function outputConfig(kind: ConnectorKind, type: string, stored: ConnectorConfig): ConnectorConfig {
  return maskSecrets(kind, type, projectOutput(kind, type, stored));
}

/** The output shape of a stored config WITHOUT masking (for callers that mask themselves). Never throws. */
export function projectOutput(kind: ConnectorKind, type: string, stored: ConnectorConfig): ConnectorConfig {
  const def = getConnector(kind, type);
  if (!def) return { ...stored };
  const r = def.output.safeParse(stored);
  const projected: ConnectorConfig = r.success ? r.data : { ...stored };
  for (const f of def.outputOmit ?? []) delete projected[f];
  return projected;
}

/**
 * For an update: every secret field of `incoming` that holds what a response showed for the value in
 * `previous` (SECRET_MASK, or the masked form of a map) gets the stored value back (call before
 * validateConfig). Fields absent from `incoming` stay absent (PUT replaces).
 */
export function mergeSecrets(kind: ConnectorKind, type: string, incoming: unknown, previous: ConnectorConfig): unknown {
  if (!incoming || typeof incoming !== 'object' || Array.isArray(incoming)) return incoming;
  const out: ConnectorConfig = { ...(incoming as ConnectorConfig) };
  const rules = maskRules(getConnector(kind, type));
  for (const f of secretFields(kind, type, previous)) {
    const stored = previous[f];
    if (stored === undefined || stored === null) continue;
    if (out[f] === SECRET_MASK || isMaskedFormOf(out[f], maskField(f, stored, rules))) out[f] = stored;
  }
  return out;
}

/**
 * Really tries the connector. Never throws and never takes longer than about `timeoutMs`
 * (default 10 s): the check's signal is aborted and FAILURE returned when the budget is spent.
 */
export async function checkConnection(
  kind: ConnectorKind,
  type: string,
  config: ConnectorConfig,
  opts: { timeoutMs?: number } = {},
): Promise<ConnectionCheckResult> {
  const def = getConnector(kind, type);
  if (!def) return { status: 'FAILURE', reason: `unknown ${kind} type ${JSON.stringify(type)}` };
  const unavailable = def.unavailable?.();
  if (unavailable) return { status: 'FAILURE', reason: unavailable };
  const parsed = def.input.safeParse(config);
  if (!parsed.success) {
    const items = toValidationIssues(parsed.error.issues, config, ['config']);
    const texts = credentialTexts(config, maskRules(def));
    return { status: 'FAILURE', reason: scrubText(`invalid config: ${items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')}`, texts) };
  }
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ConnectionCheckResult>((resolve) => {
    timer = setTimeout(() => {
      ac.abort(new Error('connection check timed out'));
      resolve({ status: 'FAILURE', reason: `connection check timed out after ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const run = (async (): Promise<ConnectionCheckResult> => {
    try {
      const note = await def.check(parsed.data, { signal: ac.signal, timeoutMs });
      return note ? { status: 'SUCCESS', reason: note } : { status: 'SUCCESS' };
    } catch (err) {
      // -- a client library's message may quote the URL or key it was given --
      return { status: 'FAILURE', reason: scrubText(describeError(err).replace(/^Error: /, ''), credentialTexts(parsed.data, maskRules(def))) };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

/** Whether jobs can read from (source) or write to (destination) this type in this deployment. */
export function supportsRuntime(kind: ConnectorKind, type: string): boolean {
  const def = getConnector(kind, type);
  if (!def || def.unavailable?.()) return false;
  return kind === 'source' ? Boolean(def.list && def.read) : Boolean(def.write || def.upload);
}

function runtimeDef(kind: ConnectorKind, type: string): ConnectorDefinition {
  const def = getConnector(kind, type);
  const unavailable = def?.unavailable?.();
  if (unavailable) throw new BadRequest(unavailable);
  if (!def || !supportsRuntime(kind, type)) {
    throw new BadRequest(`${kind} type ${JSON.stringify(type)} cannot be ${kind === 'source' ? 'read' : 'written'} by this deployment (supported: ${runtimeTypes(kind).join(', ')})`);
  }
  return def;
}

/** Whether a source type is a stream (definition.stream): keys not listed again have not left it. */
export function isStreamSource(type: string): boolean {
  return getConnector('source', type)?.stream === true;
}

/** Types with runtime operations (s3, azure, local). */
export function runtimeTypes(kind: ConnectorKind): string[] {
  return listTypes(kind).filter((t) => supportsRuntime(kind, t));
}

/** Files under the source's root; keys are relative to it and '/'-separated. */
export async function* listSourceObjects(type: string, config: ConnectorConfig, ctx?: RuntimeContext): AsyncIterable<SourceObject> {
  yield* runtimeDef('source', type).list!(config, ctx);
}

/** A stream source's run is over: it may move past what that run listed (definition.acknowledge). */
export async function acknowledgeSource(type: string, config: ConnectorConfig, checkpoint: Record<string, unknown>, ctx?: RuntimeContext): Promise<void> {
  await runtimeDef('source', type).acknowledge?.(config, checkpoint, ctx);
}

export async function readSourceObject(type: string, config: ConnectorConfig, key: string, ctx?: RuntimeContext): Promise<Uint8Array> {
  return runtimeDef('source', type).read!(config, key, ctx);
}

/**
 * Delivers one processed file to a destination: record destinations (upload) get the elements as
 * records under the document's record id, replacing that document's earlier records; file
 * destinations (write) get `<sourceKey>.json` of the elements under their root.
 */
export async function deliverToDestination(
  type: string,
  config: ConnectorConfig,
  doc: { sourceId?: string; sourceKey: string; elements: ElementRecord[] },
  ctx: UploadContext = {},
): Promise<UploadResult> {
  const def = runtimeDef('destination', type);
  if (def.upload) {
    const recordId = documentRecordId(doc.sourceId ?? '', doc.sourceKey);
    return def.upload(config, { recordId, sourceKey: doc.sourceKey, elements: doc.elements }, ctx);
  }
  await def.write!(config, `${doc.sourceKey}.json`, Buffer.from(JSON.stringify(doc.elements)), ctx);
  return { written: doc.elements.length };
}

/** Removes a source document's records from a record destination; undefined when the type cannot. */
export async function removeDocumentRecords(
  type: string,
  config: ConnectorConfig,
  doc: { sourceId?: string; sourceKey: string },
  ctx: UploadContext = {},
): Promise<number | undefined> {
  const def = runtimeDef('destination', type);
  if (!def.removeRecords) return undefined;
  return def.removeRecords(config, documentRecordId(doc.sourceId ?? '', doc.sourceKey), ctx);
}

/** Writes `data` at `key` under the destination's root (prefix or directory). */
export async function writeDestinationObject(type: string, config: ConnectorConfig, key: string, data: Uint8Array, ctx?: RuntimeContext): Promise<void> {
  return runtimeDef('destination', type).write!(config, key, data, ctx);
}

/**
 * The registry as one object, shaped like the ConnectorCatalog port of lambdas/domain/connectors.ts
 * (types / validate / output without masking / secretFields / check).
 */
export const registryCatalog = {
  types: (kind: ConnectorKind): string[] => listTypes(kind),
  validate: (kind: ConnectorKind, type: string, config: unknown, loc: (string | number)[]): ConnectorConfig =>
    validateConfig(kind, type, config, loc),
  output: (kind: ConnectorKind, type: string, config: ConnectorConfig): ConnectorConfig => projectOutput(kind, type, config),
  secretFields: (kind: ConnectorKind, type: string, config?: ConnectorConfig): string[] => secretFields(kind, type, config),
  check: (kind: ConnectorKind, type: string, config: ConnectorConfig): Promise<ConnectionCheckResult> => checkConnection(kind, type, config),
};
