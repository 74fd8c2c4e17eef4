// The state machine definitions checked by asl-validator (the check aws-local-stepfunctions runs in
// its StateMachine constructor, with the same options), on a thread of its own.
//
// Why not in the constructor, on the main thread: once asl-validator has run in an isolate (its ajv
// schemas, formats and path grammar), every AWS SDK call made in that isolate afterwards allocated
// about twice as much, and each young-generation collection took twice as long (measured on
// `npm start`: a DynamoDB GetItem 1.2 → 1.5 ms, scavenges 2.4 → 4.7 ms; unread-count p95 7.0 → 4.0 ms
// without it). The API's handlers share this thread with the emulators, so the check runs where its
// heap is thrown away afterwards; the constructors then skip it (`noValidate`), as the library
// already does for the nested machines of Map and Parallel states.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const validator = require(workerData.validator);
const validate = validator.default ?? validator;
parentPort.postMessage(workerData.definitions.map(({ name, definition }) => {
  const { isValid, errorsText } = validate(definition, workerData.options);
  return { name, errors: isValid ? undefined : errorsText('\\n') };
}));
`;

/** Where aws-local-stepfunctions loads asl-validator from (its own copy and version). */
function validatorPath(): string {
  return createRequire(require.resolve('aws-local-stepfunctions')).resolve('asl-validator');
}

/**
 * Rejects, as the StateMachine constructor would, when a definition is not valid ASL: the error
 * names the definition and lists asl-validator's findings.
 */
export async function validateDefinitions(
  definitions: { name: string; definition: unknown }[],
  options: { checkPaths?: boolean; checkArn?: boolean } = { checkPaths: true, checkArn: true },
): Promise<void> {
  const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { validator: validatorPath(), definitions, options } });
  const results = await new Promise<{ name: string; errors?: string }[]>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the ASL validation thread exited (code ${code}) before answering`)));
  }).finally(() => void w.terminate());
  const bad = results.filter((r) => r.errors !== undefined);
  if (bad.length) {
    throw new Error(bad.map((r) => `State machine definition ${r.name} is invalid, see error(s) below:\n ${r.errors}`).join('\n'));
  }
}
