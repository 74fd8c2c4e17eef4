// `npm start`: the whole service on http://127.0.0.1:8000 (PORT, HOST), data under .data/ (DATA_DIR).
// Ctrl-C stops every component in order, so no write is cut off.
import { writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startLocalStack } from './stack';
import { installProcessGuards } from './process-guard';
import { warmPartitionSandbox } from '../lambdas/engine/partition/index';
import { buildConsole } from '../console/build.mjs';
import { claimDataDir, portFree, releaseDataDir } from './start-guards';

// The pinned AWS SDK warns that its 2027 releases will need Node 22 (the Lambda runtime already is);
// locally on Node 20 that warning is noise in the startup log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 8000);
const host = process.env.HOST ?? '127.0.0.1';
const say = (line: string) => console.log(`[wps] ${line}`);

// -- start-up mistakes answered in one line, before anything starts: a second start on the same data
// -- (its emulators would fight over the same files) and a port in use --
const lock = claimDataDir(dataDir);
if (!lock.ok) {
  console.error(`[wps] already running (pid ${lock.pid}) on ${dataDir}: stop it first, or start another with its own DATA_DIR and PORT`);
  process.exit(1);
}
if (!(await portFree(port, host))) {
  console.error(`[wps] port ${port} on ${host} is in use: start with another, e.g. PORT=${port + 1} npm start`);
  releaseDataDir(dataDir);
  process.exit(1);
}

// -- the web console, built from console/src for this start (esbuild, well under a second) --
process.env.CONSOLE_ASSETS_DIR = join(dataDir, 'console');
await buildConsole(process.env.CONSOLE_ASSETS_DIR);

const stack = await startLocalStack({
  dataDir,
  port,
  host,
  azurite: process.env.LOCAL_AZURITE === '1',
  log: say,
  onRequest: (r) => say(`${r.method} ${r.path} -> ${r.status} (${r.ms} ms)`),
});
// -- from here on a failure inside one request is logged, never the end of the service (a failed
// -- start above still exits with its error) --
installProcessGuards();
// the first document then finds a partition worker ready
warmPartitionSandbox();
const endpointsFile = join(dataDir, 'endpoints.json');
// -- owner-only: it holds this start's emulator credential (npm run keys and the tests sign with it) --
// (removed first: a file left by a killed run keeps its mode)
rmSync(endpointsFile, { force: true });
writeFileSync(endpointsFile, JSON.stringify({ url: stack.url, ...stack.endpoints, pid: process.pid, credentials: stack.credentials }, null, 2), { mode: 0o600 });
say(`${'auth mode'.padEnd(14)}${stack.env.AUTH_MODE}${stack.env.AUTH_MODE === 'keyed' ? ' (create keys with: npm run keys -- create)' : ' (private: no API key needed)'}`);
say(`${'data'.padEnd(14)}${dataDir}`);
say(`${'ready'.padEnd(14)}${stack.url}  (console: ${stack.url}/  API reference: ${stack.url}/docs)`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  say(`${signal} received, stopping`);
  await stack.stop();
  rmSync(endpointsFile, { force: true });
  releaseDataDir(dataDir);
  say('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
