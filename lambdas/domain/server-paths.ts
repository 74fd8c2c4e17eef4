// The last line of defence for texts a tenant reads (error details, failed-file reasons, job
// messages, connection-check reasons): absolute paths under the service's own directories (its data
// directory, working directory, temp and home folders, the operator's connector root and models
// directory, a Lambda's task root) become `<server path>`. Connectors and the engine already speak
// in the tenant's names; this catches what a library's message quotes on its own (ENOENT '/tmp/...').
import os from 'node:os';
import path from 'node:path';

const PLACEHOLDER = '<server path>';

function serverDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [
    path.resolve(env.DATA_DIR || '.data'),
    process.cwd(),
    os.tmpdir(),
    os.homedir(),
    env.LOCAL_CONNECTOR_ROOT && path.resolve(env.LOCAL_CONNECTOR_ROOT),
    env.LOCAL_EMBEDDING_MODELS_DIR && path.resolve(env.LOCAL_EMBEDDING_MODELS_DIR),
    env.SECRETS_KEY_FILE && path.dirname(path.resolve(env.SECRETS_KEY_FILE)),
    env.LAMBDA_TASK_ROOT,
  ].filter((d): d is string => typeof d === 'string' && d.length > 1 && d !== path.parse(d).root);
  return [...new Set(dirs)].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every absolute path under a service directory replaced by `<server path>`. */
export function withoutServerPaths(text: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!text) return text;
  let out = text;
  for (const dir of serverDirs(env)) {
    if (!out.includes(dir)) continue;
    // -- the directory itself or anything under it, up to a quote, a space or punctuation that ends a path --
    out = out.replace(new RegExp(`${escape(dir)}(?![A-Za-z0-9._-])(?:[\\\\/][^\\s'"\`,;)\\]]*)?`, 'g'), PLACEHOLDER);
  }
  return out;
}
