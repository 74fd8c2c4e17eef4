// The one place that fixes how every Lambda of the service is built and run: Node.js 22 on arm64,
// X-Ray tracing, its own log group with a retention, source maps, and an esbuild bundle made locally
// (never in Docker). Route functions (lib/api.ts) and queue consumers (lib/queues.ts) are all
// ServiceFunctions, so a change here changes every function.
//
// Bundling decisions:
// - The AWS SDK is bundled (bundleAwsSDK), not taken from the runtime: package.json pins the v3
//   clients at one version that the tests run against, newer than the copy the Lambda runtime ships
//   and updates on its own schedule. Bundled and minified, only the commands used are included.
// - ESM output with a banner that defines require/__filename/__dirname, because bundled CommonJS
//   dependencies (busboy, iconv-lite, ...) call require('stream') and friends at run time.
// - Packages that load files beside themselves at run time (WebAssembly, worker scripts, data)
//   cannot live inside a bundle: RUNTIME_RESOLVED_MODULES are kept external and, when a bundle
//   imports their trigger, copied with their dependency closure from the local node_modules into the
//   asset (a copy, not an npm install, so synth stays offline). pdfium finds pdfium.wasm with
//   require.resolve; tesseract.js starts a worker script from its own folder, which loads
//   tesseract.js-core's WebAssembly; the English traineddata is found with require.resolve.
// - Native engine packages (ONNX Runtime under @huggingface/transformers, sharp)
//   cannot be bundled and have no linux-arm64 build installed here: LAMBDA_UNAVAILABLE_MODULES stay
//   external and are not shipped. Code must load them with a dynamic import() on the paths that
//   need them (local embeddings), so every other path loads; on Lambda those paths report the
//   module missing. Shipping them would take a layer built for linux-arm64. DuckDB (@duckdb/node-api,
//   the motherduck destination) is in the same case: its binding is installed for linux-x64 only.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { Config } from '../lambdas/config';
import { ASSETS_MARKER as SWAGGER_UI_ASSETS_MARKER, SWAGGER_UI_FILES } from '../lambdas/openapi/docs-page';
import { CONSOLE_MARKER } from '../lambdas/console/assets';

/** Repository root (the folder holding package.json and lambdas/). */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HANDLERS_DIR = join(PROJECT_ROOT, 'lambdas', 'handlers');

export interface RuntimeResolvedModule {
  /** Package copied into the asset's node_modules (with its dependencies). */
  module: string;
  /** Copied when the bundle imports this package. */
  when: string;
  /** Paths under node_modules (shell globs) removed after the copy: files Node never loads. */
  prune?: string[];
}

/** Packages found in node_modules at run time (see the header). */
export const RUNTIME_RESOLVED_MODULES: RuntimeResolvedModule[] = [
  { module: '@embedpdf/pdfium', when: '@embedpdf/pdfium' },
  // The *.wasm.js cores embed the WebAssembly as text for browsers; Node loads the .wasm files.
  { module: 'tesseract.js', when: 'tesseract.js', prune: ['tesseract.js-core/*.wasm.js'] },
  // lambdas/engine/partition/ocr/tesseract.ts reads the 4.0.0_best_int models only.
  { module: '@tesseract.js-data/eng', when: 'tesseract.js', prune: ['@tesseract.js-data/eng/4.0.0'] },
  // The other installed languages (fr, ko): OCR retries with them when a page reads badly.
  { module: '@tesseract.js-data/fra', when: 'tesseract.js', prune: ['@tesseract.js-data/fra/4.0.0'] },
  { module: '@tesseract.js-data/kor', when: 'tesseract.js', prune: ['@tesseract.js-data/kor/4.0.0'] },
];

/** Native packages left out of every bundle (see the header). */
export const LAMBDA_UNAVAILABLE_MODULES = ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-web', 'sharp', '@duckdb/node-api',
  // @databricks/sql's optional native parts (LZ4 results, the SEA kernel): never used here (lz4 and
  // cloud fetch are turned off, the Thrift backend is pure JS), and .node files cannot be bundled.
  'lz4-napi', '@databricks/databricks-sql-kernel-*'];

export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const FUNCTION_ARCHITECTURE = lambda.Architecture.ARM_64;

/** Names of the variables lambdas/config.ts reads: a typo here fails type checking. */
export type ConfigEnvName = keyof Config;

const ESM_BANNER = [
  "import { createRequire as __wpsCreateRequire } from 'node:module';",
  "import { fileURLToPath as __wpsFileURLToPath } from 'node:url';",
  "import { dirname as __wpsDirname } from 'node:path';",
  'const require = __wpsCreateRequire(import.meta.url);',
  'const __filename = __wpsFileURLToPath(import.meta.url);',
  'const __dirname = __wpsDirname(__filename);',
].join(' ');

/** Settings every function of a stack shares; the stack hands them to each construct. */
export interface FunctionDefaults {
  /** Variables beyond the ones the bind* helpers set (auth mode, defaults). */
  environment?: Partial<Record<ConfigEnvName, string>>;
  /** Default one month. */
  logRetention?: logs.RetentionDays;
  /** Default arm64. x86_64 suits emulators on x86 hosts (bundles hold no native code). */
  architecture?: lambda.Architecture;
}

export interface ServiceFunctionProps extends FunctionDefaults {
  /** Handler module under lambdas/handlers, without extension. */
  file: string;
  /** Exported handler in that module. */
  export: string;
  description?: string;
  /** Default 512 MB. */
  memoryMb?: number;
  /** Default 29 s (the API Gateway integration limit). */
  timeoutSeconds?: number;
  /** Reserved concurrency: a ceiling for this function and a share no other function can take. Default none. */
  reservedConcurrency?: number;
}

export class ServiceFunction extends NodejsFunction {
  /** Handler module under lambdas/handlers, without extension (the bundle's entry). */
  readonly handlerFile: string;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      entry: join(HANDLERS_DIR, `${props.file}.ts`),
      handler: props.export,
      description: props.description,
      runtime: FUNCTION_RUNTIME,
      architecture: props.architecture ?? FUNCTION_ARCHITECTURE,
      memorySize: props.memoryMb ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 29),
      reservedConcurrentExecutions: props.reservedConcurrency,
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...definedOnly(props.environment ?? {}) },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: ESM_BANNER,
        minify: true,
        sourceMap: true,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: false,
        bundleAwsSDK: true,
        externalModules: [...new Set(RUNTIME_RESOLVED_MODULES.map((m) => m.when)), ...LAMBDA_UNAVAILABLE_MODULES],
        tsconfig: join(PROJECT_ROOT, 'tsconfig.json'),
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          // the partition sandbox's worker first: the engine (and the modules it loads at run
          // time) lives in it, not in index.mjs
          afterBundling: (inputDir, outputDir) => [
            workerBundleStep(PARTITION_WORKER, ['index.mjs'], inputDir, outputDir),
            ...RUNTIME_RESOLVED_MODULES.map((m) => copyIfImported(m, inputDir, outputDir)),
            workerBundleStep(PDF_PAGE_WORKER, ['index.mjs', PARTITION_WORKER.output], inputDir, outputDir),
            ocrWorkerStep(inputDir, outputDir),
            swaggerUiStep(inputDir, outputDir),
            consoleStep(inputDir, outputDir),
          ],
        },
      },
    });
    this.handlerFile = props.file;
  }
}

/** Sets a variable of lambdas/config.ts on a function (bind* helpers call this next to their grant). */
export function setConfigEnv(fn: lambda.Function, name: ConfigEnvName, value: string): void {
  fn.addEnvironment(name, value);
}

/** A worker script bundled beside index.mjs when a bundle contains `marker` (a string of the module that starts it). */
export interface WorkerBundle {
  source: string;
  output: string;
  marker: string;
}

/** The partition sandbox's worker (lambdas/engine/partition/sandbox.ts looks for ./partition-worker.mjs). */
export const PARTITION_WORKER: WorkerBundle = { source: 'lambdas/engine/partition/sandbox-worker.ts', output: 'partition-worker.mjs', marker: 'partition sandbox worker script is missing' };
/** The PDF page worker (pdf/pool.ts looks for ./worker.mjs beside itself: beside partition-worker.mjs). */
export const PDF_PAGE_WORKER: WorkerBundle = { source: 'lambdas/engine/partition/pdf/worker.ts', output: 'worker.mjs', marker: 'page worker exited' };

/**
 * tesseract.js's worker with its console routed to the JSON log (lambdas/engine/partition/ocr/
 * tesseract.ts looks for ./tesseract-worker.cjs beside itself: beside partition-worker.mjs). Plain
 * CommonJS that loads tesseract.js's own worker script from the copied node_modules: copied, not bundled.
 */
export const OCR_WORKER_FILE = { source: 'lambdas/engine/partition/ocr/tesseract-worker.cjs', output: 'tesseract-worker.cjs' };

/** Bundles that a function may carry: its handler and the worker scripts beside it. */
const BUNDLE_FILES = ['index.mjs', PARTITION_WORKER.output];

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const anyContains = (needle: string, outputDir: string, files: string[]) =>
  files.map((f) => `grep -qs ${shellQuote(needle)} "${outputDir}/${f}"`).join(' || ');

/**
 * A shell step: when one of `files` contains the worker's marker, the worker is bundled with the
 * same settings as the handler, so the sandbox and the PDF page pool run on Lambda too.
 */
function workerBundleStep(worker: WorkerBundle, files: string[], inputDir: string, outputDir: string): string {
  const externals = [...new Set(RUNTIME_RESOLVED_MODULES.map((m) => m.when)), ...LAMBDA_UNAVAILABLE_MODULES].map((m) => `--external:${m}`);
  const args = [
    join(inputDir, worker.source),
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node22',
    '--main-fields=module,main',
    '--minify',
    `--banner:js=${shellQuote(ESM_BANNER)}`,
    ...externals,
    `--outfile=${join(outputDir, worker.output)}`,
    '--log-level=warning',
  ];
  const esbuild = join(inputDir, 'node_modules', '.bin', 'esbuild');
  return `if ${anyContains(worker.marker, outputDir, files)}; then "${esbuild}" ${args.join(' ')}; fi`;
}

/** A shell step: the OCR worker script copied beside the bundle that runs OCR. */
function ocrWorkerStep(inputDir: string, outputDir: string): string {
  return `if ${anyContains(OCR_WORKER_FILE.output, outputDir, BUNDLE_FILES)}; then cp "${join(inputDir, OCR_WORKER_FILE.source)}" "${join(outputDir, OCR_WORKER_FILE.output)}"; fi`;
}

/**
 * A shell step: the /docs page's Swagger UI files (lambdas/openapi/docs-page.ts reads them from
 * swagger-ui/ beside index.mjs) copied into a bundle that serves the page.
 */
function swaggerUiStep(inputDir: string, outputDir: string): string {
  const from = join(inputDir, 'node_modules', 'swagger-ui-dist');
  const to = join(outputDir, 'swagger-ui');
  const files = SWAGGER_UI_FILES.map((f) => `"${join(from, f)}"`).join(' ');
  return `if ${anyContains(SWAGGER_UI_ASSETS_MARKER, outputDir, ['index.mjs'])}; then mkdir -p "${to}" && cp ${files} "${to}/"; fi`;
}

/**
 * A shell step: the web console built (console/build.mjs, esbuild) into console/ beside index.mjs of
 * the bundle that serves it (lambdas/console/assets.ts reads it there).
 */
function consoleStep(inputDir: string, outputDir: string): string {
  return `if ${anyContains(CONSOLE_MARKER, outputDir, ['index.mjs'])}; then (cd "${inputDir}" && node console/build.mjs "${join(outputDir, 'console')}" >/dev/null); fi`;
}

/** A shell step: copy a package and its dependencies into the asset when the bundle imports m.when. */
function copyIfImported(m: RuntimeResolvedModule, inputDir: string, outputDir: string): string {
  // The closure is read from this checkout; inputDir may be the Docker mount path (/asset-input).
  const copies = dependencyClosure(m.module, join(PROJECT_ROOT, 'node_modules')).map((pkg) => {
    const dest = join(outputDir, 'node_modules', pkg);
    return `mkdir -p "${dirname(dest)}" && rm -rf "${dest}" && cp -R "${join(inputDir, 'node_modules', pkg)}" "${dest}"`;
  });
  const prunes = (m.prune ?? []).map((glob) => `rm -rf "${join(outputDir, 'node_modules')}"/${glob}`);
  return `if ${anyContains(`"${m.when}`, outputDir, BUNDLE_FILES)}; then ${[...copies, ...prunes].join(' && ')}; fi`;
}

/**
 * A package and the top-level node_modules packages it needs at run time (dependencies and installed
 * optional dependencies, transitively). Packages nested in a copied package's own node_modules come
 * along with it. Computed when the stack is built, from the installed package.json files.
 */
export function dependencyClosure(root: string, nodeModules: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string, fromDir: string | undefined) => {
    const nested = fromDir ? join(fromDir, 'node_modules', name) : undefined;
    const isNested = nested !== undefined && existsSync(join(nested, 'package.json'));
    const dir = isNested ? nested : join(nodeModules, name);
    if (seen.has(dir)) return;
    seen.add(dir);
    if (!existsSync(join(dir, 'package.json'))) throw new Error(`${name} is not installed in ${nodeModules} (needed by ${root} at run time)`);
    if (!isNested) out.push(name); // nested packages are copied with their parent
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
      if (existsSync(join(dir, 'node_modules', dep)) || existsSync(join(nodeModules, dep))) visit(dep, dir);
    }
  };
  visit(root, undefined);
  return out;
}

function definedOnly(env: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
