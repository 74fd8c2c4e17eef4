// The TLS stand-ins (records/stand-in.ts `tls`: Databricks, Astra DB) serve one self-signed
// certificate per process; connectors trust it as a private CA, through CONNECTOR_CA_FILE. Call
// before starting a local stack (config is read once) and undo afterwards.
import { resetConfig } from '../../lambdas/config';
import { standInTls } from '../../lambdas/connectors/records/stand-in';

/**
 * Sets environment variables the connectors' config reads (then re-reads the config); returns the
 * function that restores each one as it was (unset where it was unset).
 */
export function setConfigEnv(vars: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  resetConfig();
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
  };
}

/** Sets CONNECTOR_CA_FILE to the stand-ins' certificate; returns the function that restores it. */
export function trustStandIns(): () => void {
  return setConfigEnv({ CONNECTOR_CA_FILE: standInTls().certFile });
}

let agent: import('undici').Agent | undefined;
/** fetch for a test's own calls to a TLS stand-in (seeding, reading back): trusts its certificate. */
export async function standInFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const { Agent, fetch } = await import('undici');
  agent ??= new Agent({ connect: { ca: standInTls().cert } });
  return (await fetch(url, { ...(init as object), dispatcher: agent } as never)) as unknown as Response;
}
