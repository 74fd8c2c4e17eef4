// Credentials inside node settings (an embed node's api_key, a VLM provider key, AWS secret keys, a
// header map, a URL with userinfo): sealed by the SecretBox before a job or workflow is stored, masked
// in every response, opened only where a node runs. What is a credential is lambdas/credentials.ts's
// rule (by name at any depth, by value anywhere), applied to every string leaf of the settings.
import type { SecretBox } from './ports';
import type { JobNode } from './job-nodes';
import { SECRET_MASK } from '../credential-names';
import { isMaskedFormOf, maskValue } from '../credentials';

export const SETTING_MASK = SECRET_MASK;
const SEALED = /^(aes|kms):/;

/** The value with every credential leaf replaced by fn(leaf); a sealed leaf counts as one. */
async function mapSecretLeaves(key: string | undefined, value: unknown, fn: (v: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return value !== '' && (SEALED.test(value) || maskValue(key, value) === SECRET_MASK) ? fn(value) : value;
  if (Array.isArray(value)) {
    // -- an element inherits its list's key: a list under `tokens` holds tokens --
    const named = maskValue(key, value) as unknown[];
    return Promise.all(value.map((v, i) => (typeof v === 'string' && named[i] === SECRET_MASK ? fn(v) : mapSecretLeaves(undefined, v, fn))));
  }
  if (value && typeof value === 'object') {
    const masked = maskValue(key, value) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = typeof v === 'string' && v !== '' && masked[k] === SECRET_MASK ? await fn(v) : await mapSecretLeaves(k, v, fn);
    }
    return out;
  }
  return value;
}

async function mapSecrets(nodes: JobNode[], fn: (value: string) => Promise<string>): Promise<JobNode[]> {
  return Promise.all(nodes.map(async (n) => ({ ...n, settings: (await mapSecretLeaves(undefined, n.settings ?? {}, fn)) as Record<string, unknown> })));
}

/** Before storing: every credential leaf of the settings sealed. */
export function sealNodeSecrets(nodes: JobNode[], box: SecretBox): Promise<JobNode[]> {
  return mapSecrets(nodes, async (v) => (SEALED.test(v) ? v : box.seal(v)));
}

/** Where a node runs: the sealed settings opened again. */
export function openNodeSecrets(nodes: JobNode[], box: SecretBox): Promise<JobNode[]> {
  return mapSecrets(nodes, async (v) => (SEALED.test(v) ? box.open(v) : v));
}

/** The masked form of one setting: credentials (clear or sealed) shown as the mask, shape kept. */
function maskSetting(key: string | undefined, value: unknown): unknown {
  if (typeof value === 'string') return value !== '' && SEALED.test(value) ? SECRET_MASK : maskValue(key, value);
  if (Array.isArray(value)) return (maskValue(key, value) as unknown[]).map((v, i) => (v === SECRET_MASK ? v : maskSetting(undefined, value[i])));
  if (value && typeof value === 'object') {
    const masked = maskValue(key, value) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked[k] === SECRET_MASK ? SECRET_MASK : maskSetting(k, v)]));
  }
  return value;
}

/** For responses: credential settings shown as a mask, never in clear or sealed form. */
export function maskNodeSecrets(nodes: JobNode[]): JobNode[] {
  return nodes.map((n) => ({
    ...n,
    settings: Object.fromEntries(Object.entries(n.settings ?? {}).map(([k, v]) => [k, maskSetting(k, v)])),
  }));
}

/**
 * For updates: a node sent back with a setting as a response showed it (the mask, or a map's masked
 * form) keeps the stored (sealed) value of the node with the same id.
 */
export function keepMaskedSecrets(incoming: JobNode[], stored: JobNode[]): JobNode[] {
  const byId = new Map(stored.map((n) => [n.id, n]));
  return incoming.map((n) => {
    const prev = byId.get(n.id);
    if (!prev) return n;
    const settings = { ...n.settings };
    for (const [k, v] of Object.entries(settings)) {
      const before = prev.settings?.[k];
      if (before === undefined) continue;
      if (v === SETTING_MASK || isMaskedFormOf(v, maskSetting(k, before))) settings[k] = before;
    }
    return { ...n, settings };
  });
}
