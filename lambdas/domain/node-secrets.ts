// Credentials inside node settings (an embed node's api_key, a VLM provider key, AWS secret keys):
// sealed by the SecretBox before a job or workflow is stored, masked in every response, opened only
// where a node runs.
import type { SecretBox } from './ports';
import type { JobNode } from './job-nodes';

export const SECRET_SETTING = /(api_?key|secret|token|password|passwd|credential|private_?key)/i;
export const SETTING_MASK = '**********';
const SEALED = /^(aes|kms):/;

async function mapSecrets(nodes: JobNode[], fn: (value: string) => Promise<string>): Promise<JobNode[]> {
  return Promise.all(
    nodes.map(async (n) => {
      const settings: Record<string, unknown> = { ...n.settings };
      for (const [k, v] of Object.entries(settings)) {
        if (SECRET_SETTING.test(k) && typeof v === 'string' && v !== '') settings[k] = await fn(v);
      }
      return { ...n, settings };
    }),
  );
}

/** Before storing: every secret-looking string setting sealed. */
export function sealNodeSecrets(nodes: JobNode[], box: SecretBox): Promise<JobNode[]> {
  return mapSecrets(nodes, async (v) => (SEALED.test(v) ? v : box.seal(v)));
}

/** Where a node runs: the sealed settings opened again. */
export function openNodeSecrets(nodes: JobNode[], box: SecretBox): Promise<JobNode[]> {
  return mapSecrets(nodes, async (v) => (SEALED.test(v) ? box.open(v) : v));
}

/** For responses: secret settings shown as a mask, never in clear or sealed form. */
export function maskNodeSecrets(nodes: JobNode[]): JobNode[] {
  return nodes.map((n) => ({
    ...n,
    settings: Object.fromEntries(
      Object.entries(n.settings ?? {}).map(([k, v]) => [k, SECRET_SETTING.test(k) && typeof v === 'string' && v !== '' ? SETTING_MASK : v]),
    ),
  }));
}

/**
 * For updates: a node sent back with masked settings keeps the stored (sealed) value of the node
 * with the same id.
 */
export function keepMaskedSecrets(incoming: JobNode[], stored: JobNode[]): JobNode[] {
  const byId = new Map(stored.map((n) => [n.id, n]));
  return incoming.map((n) => {
    const prev = byId.get(n.id);
    if (!prev) return n;
    const settings = { ...n.settings };
    for (const [k, v] of Object.entries(settings)) if (v === SETTING_MASK && prev.settings[k] !== undefined) settings[k] = prev.settings[k];
    return { ...n, settings };
  });
}
