// Loads handler functions by the (file, export) pairs of the route and queue tables, exactly as the
// CDK bundles them (entry lambdas/handlers/<file>.ts, handler <export>).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, dirname } from 'node:path';

const handlersDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'lambdas', 'handlers');
const cache = new Map<string, Promise<unknown>>();

export async function loadHandler<F>(ref: { file: string; export: string }): Promise<F> {
  const key = ref.file;
  if (!cache.has(key)) cache.set(key, import(pathToFileURL(join(handlersDir, `${ref.file}.ts`)).href));
  const mod = (await cache.get(key)) as Record<string, unknown>;
  const fn = mod[ref.export];
  if (typeof fn !== 'function') throw new Error(`handler ${ref.file}.${ref.export} not found`);
  return fn as F;
}

/** A minimal Lambda context for local invocations. */
export function lambdaContext(name: string, timeoutMs = 900_000) {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '3008',
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
