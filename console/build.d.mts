// Types of build.mjs (plain JavaScript: it also runs in the Lambda bundling step, without tsx).
export interface ConsoleBuild {
  manifest: { js: string; css: string; pdfJs: string; pdfWorker: string; files: string[] };
  sizes: { file: string; bytes: number; gzipped: number }[];
  firstLoadGzipped: number;
}
export function buildConsole(outDir?: string): Promise<ConsoleBuild>;
