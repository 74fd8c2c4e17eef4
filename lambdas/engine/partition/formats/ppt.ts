// Legacy PowerPoint (.ppt) partitioner: the binary format is read in JavaScript (ppt-reader.ts), so it
// works on a fresh machine and on Lambda. Elements are typed as the PPTX partitioner types them:
// slides in order (page_number), title placeholders Title, bulleted body paragraphs ListItem with
// category_depth = indent level, tables Table (with text_as_html), other text by the heuristics,
// speaker notes with includeSlideNotes.
// The reader is always used first (the same output wherever the service runs); a file it cannot read
// (not an encryption) is converted with LibreOffice when `soffice` is installed, as .doc files are.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { FormatPartitioner } from '../types';
import { DomainError, UnprocessableDocument, UnsupportedMediaType } from '../../../errors';
import { appendAll, makeElement, type Element, type ElementMetadata } from '../../elements';
import { tableText, tableToHtml } from '../table-html';
import { noteElement, paragraphElement, partitionPptx } from './pptx';
import { readPpt, TEXT_TYPE, type PptSlide, type PptText } from './ppt-reader';

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

const BODY_TYPES: number[] = [TEXT_TYPE.body, TEXT_TYPE.halfBody, TEXT_TYPE.quarterBody];

function textElements(text: PptText, md: ElementMetadata, languages?: string[]): Element[] {
  if (text.table) {
    const t = tableText(text.table);
    return t ? [makeElement('Table', t, { ...md, text_as_html: tableToHtml(text.table) })] : [];
  }
  const asTitle = text.type === TEXT_TYPE.title || text.type === TEXT_TYPE.centerTitle;
  const out: Element[] = [];
  for (const p of text.paragraphs) {
    // body placeholders are bulleted by the master unless the paragraph turns it off
    const bulleted = p.bullet ?? BODY_TYPES.includes(text.type);
    const el = paragraphElement({ text: p.text, level: p.level, bulleted, links: [], emph: [] }, md, asTitle, languages);
    if (el) out.push(el);
  }
  return out;
}

function slidesToElements(slides: PptSlide[], includeNotes: boolean, languages?: string[]): Element[] {
  const out: Element[] = [];
  slides.forEach((slide, i) => {
    const md: ElementMetadata = { page_number: i + 1 };
    const els: Element[] = [];
    for (const t of slide.texts) appendAll(els, textElements(t, md, languages));
    if (includeNotes) {
      for (const p of slide.notes.flatMap((t) => t.paragraphs)) {
        const text = p.text.trim();
        if (text) els.push(noteElement(text, md, languages));
      }
    }
    appendAll(out, els);
  });
  return out;
}

export const partitionPpt: FormatPartitioner = async (data, ctx) => {
  if (data.length < 512 || OLE_SIGNATURE.some((b, i) => data[i] !== b)) {
    throw new UnprocessableDocument('ppt: not a PowerPoint 97-2003 file (OLE compound file signature missing)');
  }
  let slides: PptSlide[];
  try {
    slides = readPpt(data);
  } catch (err) {
    const encrypted = err instanceof UnprocessableDocument && /encrypted/.test(err.message);
    if (!encrypted && findSoffice()) {
      // LibreOffice may read what this reader cannot; when it cannot either, the reader's error says why
      const pptx = await convertWithSoffice(data, 'ppt', 'pptx').catch(() => undefined);
      if (pptx) return partitionPptx(pptx, { ...ctx, filetype: 'pptx' });
    }
    if (err instanceof DomainError) throw err;
    throw new UnprocessableDocument(`ppt: cannot read the presentation (${(err as Error).message})`);
  }
  return slidesToElements(slides, ctx.options.includeSlideNotes, ctx.options.languages);
};
