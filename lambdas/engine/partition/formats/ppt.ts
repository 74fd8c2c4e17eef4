// Legacy PowerPoint (.ppt) partitioner. No maintained npm reader exists, so the file is converted to
// PPTX with LibreOffice (`soffice --headless --convert-to pptx`, as the open-source library does) and
// partitioned as PPTX. Without LibreOffice on PATH the request fails with a clear 415.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument, UnsupportedMediaType } from '../../../domain/errors';
import { partitionPptx } from './pptx';

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const CONVERT_TIMEOUT_MS = 120_000;

/** The LibreOffice binary on PATH, if any. */
export function findSoffice(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['soffice', 'libreoffice']) {
      const p = join(dir, name);
      if (dir && existsSync(p)) return p;
    }
  }
  return undefined;
}

/** Converts a legacy Office file with LibreOffice; returns the converted bytes. */
export async function convertWithSoffice(data: Uint8Array, ext: string, to: string): Promise<Uint8Array> {
  const soffice = findSoffice();
  if (!soffice) {
    throw new UnsupportedMediaType(
      `.${ext} files need LibreOffice (soffice) on the server to be converted; it is not installed`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'soffice-'));
  try {
    const input = join(dir, `input.${ext}`);
    await writeFile(input, data);
    await new Promise<void>((resolve, reject) => {
      execFile(
        soffice,
        [`-env:UserInstallation=file://${join(dir, 'profile')}`, '--headless', '--norestore', '--convert-to', to, '--outdir', dir, input],
        { timeout: CONVERT_TIMEOUT_MS, killSignal: 'SIGKILL' },
        (err, _stdout, stderr) => (err ? reject(new Error(stderr?.toString().trim() || err.message)) : resolve()),
      );
    });
    const out = join(dir, `input.${to}`);
    if (!existsSync(out)) throw new UnprocessableDocument(`${ext}: LibreOffice could not convert the document`);
    return new Uint8Array(await readFile(out));
  } catch (err) {
    if (err instanceof UnprocessableDocument) throw err;
    throw new UnprocessableDocument(`${ext}: conversion failed (${(err as Error).message})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const partitionPpt: FormatPartitioner = async (data, ctx) => {
  if (data.length < 512 || OLE_SIGNATURE.some((b, i) => data[i] !== b)) {
    throw new UnprocessableDocument('ppt: not a PowerPoint 97-2003 file (OLE compound file signature missing)');
  }
  const pptx = await convertWithSoffice(data, 'ppt', 'pptx');
  return partitionPptx(pptx, { ...ctx, filetype: 'pptx' });
};
