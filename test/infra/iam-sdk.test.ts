// Least privilege checked from the code each function ships, not from the access profiles lib/
// declares: every handler entry is bundled once with esbuild (the settings of lib/base-function.ts,
// one build for all entries, metafile only), the project files that end up in each bundle are read,
// and the AWS SDK commands they construct are mapped to the IAM actions they need. Then:
// - per function, every granted action is one a command of its bundle needs (besides the platform's
//   grants and the extras CDK's grant helpers add, listed);
// - per GET route, nothing writing is granted beyond the documented exceptions;
// - every action the code sends with a role is granted to some function.
// A bundle wires every adapter (a GET route's bundle holds the store's writes), so it bounds what a
// function sends from above: it cannot show that one function needs a grant, only that no grant is
// needless and that no action the code sends is granted nowhere.
// Commands sent with a tenant's credentials (connectors, model providers) need no grant; the files
// that send them are listed with their reason, so a new SDK call elsewhere must be classified here.
// The same build checks that the model providers' clients stay out of the API's planning handlers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { LAMBDA_UNAVAILABLE_MODULES, PARTITION_WORKER, PROJECT_ROOT, RUNTIME_RESOLVED_MODULES, ServiceFunction } from '../../lib/base-function';
import { logicalIdOf, synthStack } from './synth';

/** Files whose SDK calls carry a tenant's (or a model provider's) credentials, never the function's role. */
const TENANT_CREDENTIALS: Record<string, string> = {
  'lambdas/connectors/types/s3.ts': 'the s3 connector: key/secret, role_arn or anonymous from the connector config',
  'lambdas/connectors/delta/store.ts': 'delta_table: AWS keys from the connector config',
  'lambdas/connectors/ibm-watsonx/store.ts': 'IBM Cloud Object Storage with HMAC keys from the config',
  'lambdas/engine/embedding/providers/bedrock.ts': 'Bedrock embeddings: keys from node settings or the deployment opt-in',
  'lambdas/engine/enrichment/providers/bedrock.ts': 'Bedrock prompter: keys from node settings or the deployment opt-in',
  'lambdas/engine/partition/vlm/bedrock.ts': 'Bedrock VLM: keys from the environment by explicit opt-in',
  // its AssumeRole of CONNECTOR_ROLE_ARN is a call of the function's own role (counted below as one)
  'lambdas/connectors/service-boundary.ts': 'connector calls on runtime credentials run as the connector role, assumed here',
};
const ROLE_CODE = /^lambdas\/adapters\//;

/** IAM action of each SDK command, by package. `write` marks what a read-only route may not be granted. */
const ACTIONS: Record<string, Record<string, { action: string; write?: true }>> = {
  '@aws-sdk/lib-dynamodb': {
    GetCommand: { action: 'dynamodb:GetItem' },
    QueryCommand: { action: 'dynamodb:Query' },
    ScanCommand: { action: 'dynamodb:Scan' },
    BatchGetCommand: { action: 'dynamodb:BatchGetItem' },
    PutCommand: { action: 'dynamodb:PutItem', write: true },
    UpdateCommand: { action: 'dynamodb:UpdateItem', write: true },
    DeleteCommand: { action: 'dynamodb:DeleteItem', write: true },
    BatchWriteCommand: { action: 'dynamodb:BatchWriteItem', write: true },
  },
  '@aws-sdk/client-s3': {
    GetObjectCommand: { action: 's3:GetObject' },
    HeadObjectCommand: { action: 's3:GetObject' },
    ListObjectsV2Command: { action: 's3:ListBucket' },
    PutObjectCommand: { action: 's3:PutObject', write: true },
    CreateMultipartUploadCommand: { action: 's3:PutObject', write: true },
    UploadPartCommand: { action: 's3:PutObject', write: true },
    CompleteMultipartUploadCommand: { action: 's3:PutObject', write: true },
    AbortMultipartUploadCommand: { action: 's3:AbortMultipartUpload', write: true },
    DeleteObjectCommand: { action: 's3:DeleteObject', write: true },
  },
  '@aws-sdk/client-kms': {
    DecryptCommand: { action: 'kms:Decrypt' },
    EncryptCommand: { action: 'kms:Encrypt', write: true },
    GenerateDataKeyCommand: { action: 'kms:GenerateDataKey', write: true },
  },
  '@aws-sdk/client-sqs': {
    SendMessageCommand: { action: 'sqs:SendMessage', write: true },
    ChangeMessageVisibilityCommand: { action: 'sqs:ChangeMessageVisibility', write: true },
  },
  '@aws-sdk/client-sesv2': { SendEmailCommand: { action: 'ses:SendEmail', write: true } },
  '@aws-sdk/client-sfn': {
    StartExecutionCommand: { action: 'states:StartExecution', write: true },
    StopExecutionCommand: { action: 'states:StopExecution', write: true },
  },
  '@aws-sdk/client-eventbridge': { PutEventsCommand: { action: 'events:PutEvents', write: true } },
  // STS AssumeRole with the function's credentials, for a connector's role_arn
  '@aws-sdk/credential-providers': { fromTemporaryCredentials: { action: 'sts:AssumeRole' } },
};

/** IAM service prefix of each SDK package. */
const SERVICE_OF: Record<string, string> = {
  '@aws-sdk/lib-dynamodb': 'dynamodb', '@aws-sdk/client-dynamodb': 'dynamodb', '@aws-sdk/client-s3': 's3', '@aws-sdk/client-kms': 'kms',
  '@aws-sdk/client-sqs': 'sqs', '@aws-sdk/client-sesv2': 'ses', '@aws-sdk/client-sfn': 'states', '@aws-sdk/client-eventbridge': 'events',
  '@aws-sdk/credential-providers': 'sts',
};

/** Grants the platform uses, not the code: X-Ray tracing; a queue consumer's event source mapping. */
const PLATFORM_GRANTS = new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']);

/**
 * Granted but sent by no command of any bundle: what CDK's grant helpers add beside the actions the
 * code needs (found by this test; narrowing them is left to the IAM work of issue 12).
 */
const GRANT_HELPER_EXTRAS: Record<string, string> = {
  'dynamodb:BatchGetItem': 'Table.grantReadData; the store reads single items and queries',
  'dynamodb:ConditionCheckItem': 'Table.grantReadData',
  'dynamodb:BatchWriteItem': 'Table.grantReadWriteData; the store writes single items',
  's3:GetBucket*': 'Bucket.grantRead',
  's3:List*': 'Bucket.grantRead; the blob store never lists',
  's3:DeleteObject*': 'Bucket.grantReadWrite; objects expire by lifecycle rules, the code deletes none',
  's3:PutObjectLegalHold': 'Bucket.grantReadWrite',
  's3:PutObjectRetention': 'Bucket.grantReadWrite',
  's3:PutObjectTagging': 'Bucket.grantReadWrite',
  's3:PutObjectVersionTagging': 'Bucket.grantReadWrite',
  'sqs:GetQueueUrl': 'Queue.grantSendMessages',
};

/**
 * Writes a GET route keeps, with the reason (lib/api.ts readOnlyAccess and READ_ROUTE_EXTRAS):
 * authentication records a key's use in the table; listing notifications seals its cursor-signing
 * key, created on first use.
 */
const READ_ROUTE_WRITES: Record<string, (handlerFile: string) => boolean> = {
  'dynamodb:PutItem': () => true,
  'dynamodb:UpdateItem': () => true,
  'dynamodb:DeleteItem': () => true,
  'dynamodb:BatchWriteItem': () => true,
  'kms:Encrypt': (file) => file === 'notifications',
};

interface SentCommand {
  file: string;
  /** The SDK package (for calls made with the function's role; a tenant's client may come from elsewhere). */
  pkg?: string;
  command: string;
  /** Sent with the function's own role. */
  role: boolean;
}

/** The SDK commands a project file constructs (`new XCommand(` / `new mod.XCommand(`), with their package. */
function commandsIn(file: string): SentCommand[] {
  const src = readFileSync(`${PROJECT_ROOT}/${file}`, 'utf8');
  const pkgOf = new Map<string, string>();
  for (const m of src.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(@aws-sdk\/[^']+)'/g)) {
    for (const name of m[1]!.split(',').map((n) => n.trim().split(/\s+as\s+/).pop()!)) if (name) pkgOf.set(name, m[2]!);
  }
  const dynamic = /import\('(@aws-sdk\/[^']+)'\)/.exec(src)?.[1];
  const out: SentCommand[] = [];
  const role = ROLE_CODE.test(file);
  for (const m of src.matchAll(/new\s+(\w+\.)?(\w+Command)\s*\(/g)) {
    const pkg = m[1] ? dynamic : pkgOf.get(m[2]!);
    if (role) assert.ok(pkg, `${file}: where does ${m[2]} come from?`);
    out.push({ file, pkg, command: m[2]!, role });
  }
  // assuming a tenant's role is a call of the function's own role, wherever it is made
  for (const _ of src.matchAll(/\bfromTemporaryCredentials\(/g)) out.push({ file, pkg: '@aws-sdk/credential-providers', command: 'fromTemporaryCredentials', role: true });
  return out;
}

// -- one esbuild run over every handler entry and the partition worker (metafile only) --
const { stack, template } = synthStack();
const json = template.toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, any> }> };
const functions = stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);
const entries = [...new Set(functions.map((f) => `lambdas/handlers/${f.handlerFile}.ts`)), PARTITION_WORKER.source];
const built = await build({
  absWorkingDir: PROJECT_ROOT,
  entryPoints: entries,
  outdir: 'iam-scan', // not written
  write: false,
  metafile: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  logLevel: 'error',
  external: [...new Set(RUNTIME_RESOLVED_MODULES.map((m) => m.when)), ...LAMBDA_UNAVAILABLE_MODULES],
});
/** Project files in each entry's bundle (kept after tree shaking), and the packages. */
const filesOf = new Map<string, string[]>();
const packagesOf = new Map<string, Set<string>>();
for (const out of Object.values(built.metafile.outputs)) {
  if (!out.entryPoint) continue;
  const kept = Object.entries(out.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f);
  filesOf.set(out.entryPoint, kept.filter((f) => f.startsWith('lambdas/')));
  packagesOf.set(out.entryPoint, new Set(kept.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter((p): p is string => Boolean(p))));
}
/** A handler's files, with the sandbox worker's where the handler starts it (it ships beside index.mjs). */
function bundleFiles(handlerFile: string): string[] {
  const files = filesOf.get(`lambdas/handlers/${handlerFile}.ts`)!;
  assert.ok(files, `no bundle for ${handlerFile}`);
  return files.includes('lambdas/engine/partition/sandbox.ts') ? [...files, ...filesOf.get(PARTITION_WORKER.source)!] : files;
}

const commandCache = new Map<string, SentCommand[]>();
const sentBy = (handlerFile: string) =>
  bundleFiles(handlerFile).flatMap((f) => commandCache.get(f) ?? commandCache.set(f, commandsIn(f)).get(f)!);

function grantedActions(fn: ServiceFunction): Set<string> {
  const roleId = json.Resources[logicalIdOf(fn)]!.Properties.Role['Fn::GetAtt'][0] as string;
  return new Set(
    Object.values(json.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as { Ref: string }[]).some((x) => x.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .flatMap((s: { Action: string | string[] }) => [s.Action].flat()),
  );
}

/** Whether a granted action (possibly a wildcard like s3:GetObject*) covers `action`. */
const covers = (granted: string, action: string) =>
  granted === action || (granted.endsWith('*') && action.startsWith(granted.slice(0, -1)));

const readOnly = new Set(stack.api.routeFunctions.filter(({ route }) => route.method === 'GET').map(({ fn }) => fn));

test('every SDK command in a bundle is sent with the function\'s role (adapters) or with a tenant\'s credentials (listed)', () => {
  const files = new Set(functions.flatMap((f) => bundleFiles(f.handlerFile)));
  let seen = 0;
  for (const file of files) {
    const sent = commandsIn(file);
    if (sent.length === 0) continue;
    seen += sent.length;
    assert.ok(ROLE_CODE.test(file) || file in TENANT_CREDENTIALS, `${file} sends ${sent.map((c) => c.command).join(', ')}: sent with the function's role (move it to lambdas/adapters) or a tenant's credentials (list it here)`);
    for (const c of sent.filter((x) => x.role)) assert.ok(ACTIONS[c.pkg!]?.[c.command], `${file}: no IAM action known for ${c.pkg} ${c.command}`);
  }
  assert.ok(seen >= 20, `only ${seen} commands found`);
});

test('every action the code sends with a role is granted to at least one function whose bundle sends it', () => {
  // Per function this cannot be required: every bundle wires all adapters (a GET route's bundle holds
  // the store's writes), so a bundle is an upper bound of what its function sends, not the set itself.
  const problems: string[] = [];
  const byAction = new Map<string, { files: Set<string>; granted: boolean }>();
  for (const fn of functions) {
    const granted = grantedActions(fn);
    for (const c of sentBy(fn.handlerFile).filter((x) => x.role)) {
      const { action } = ACTIONS[c.pkg!]![c.command]!;
      const entry = byAction.get(action) ?? byAction.set(action, { files: new Set(), granted: false }).get(action)!;
      entry.files.add(`${c.command} in ${c.file}`);
      if ([...granted].some((g) => covers(g, action))) entry.granted = true;
    }
  }
  for (const [action, { files, granted }] of byAction) if (!granted) problems.push(`${action} is granted to no function, though ${[...files].join(', ')} sends it`);
  assert.deepEqual(problems, []);
  assert.ok(byAction.size >= 12, `${byAction.size} actions`);
});

test('per function: every granted action is one its bundle sends (or a listed platform grant)', () => {
  assert.ok(functions.length >= 40, `${functions.length} functions`);
  const problems: string[] = [];
  for (const fn of functions) {
    const who = `${logicalIdOf(fn)} (lambdas/handlers/${fn.handlerFile}.ts)`;
    const sends = new Set(sentBy(fn.handlerFile).filter((c) => c.role).map((c) => ACTIONS[c.pkg!]![c.command]!.action));
    for (const granted of grantedActions(fn)) {
      if ([...sends].some((a) => covers(granted, a)) || PLATFORM_GRANTS.has(granted) || granted in GRANT_HELPER_EXTRAS) continue;
      problems.push(`${who} is granted ${granted}, which no SDK command in its bundle needs`);
    }
  }
  assert.deepEqual(problems.sort(), []);
});

test('per function: a read-only route (GET) is granted nothing writing', () => {
  const writes = [...Object.values(ACTIONS).flatMap((byCommand) => Object.values(byCommand)).filter((a) => a.write).map((a) => a.action), 'dynamodb:BatchWriteItem'];
  let routes = 0;
  for (const fn of readOnly) {
    routes++;
    for (const granted of grantedActions(fn)) {
      if (READ_ROUTE_WRITES[granted]?.(fn.handlerFile)) continue;
      const written = writes.find((w) => covers(granted, w) || covers(w, granted));
      assert.equal(written, undefined, `${logicalIdOf(fn)} (GET route, lambdas/handlers/${fn.handlerFile}.ts) is granted ${granted}`);
    }
  }
  assert.ok(routes >= 15, `${routes} GET routes`);
});

test('the model providers\' clients ship only where models are called, not in the API\'s planning handlers', () => {
  const withClients = [...packagesOf].filter(([, pkgs]) => pkgs.has('openai') || pkgs.has('@anthropic-ai/sdk')).map(([entry]) => entry).sort();
  for (const planning of ['workflows', 'jobs', 'templates', 'connectors']) {
    assert.ok(!withClients.includes(`lambdas/handlers/${planning}.ts`), `lambdas/handlers/${planning}.ts carries a model client (vlm/credentials.ts is the import that needs none)`);
  }
  assert.ok(withClients.includes(PARTITION_WORKER.source), 'the partition worker calls the VLM providers');
});
