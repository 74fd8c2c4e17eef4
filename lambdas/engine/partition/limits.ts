// Caps on what one document may expand into: every per-format limit of the engine, in one place.
// Each is checked before the work it bounds where the format declares a size (zip directory entries,
// image headers), and again while the work happens (inflated bytes counted as they are produced,
// XML depth and nodes as they are parsed), so a document that lies about its sizes stops at the cap.
// Beyond a cap the document is refused with a 413 that names the cap (never a partial result: a
// silently truncated document would flow on into chunks and vector stores unnoticed).
// The partition sandbox (sandbox.ts) adds a memory and time budget around all of this.
import { PayloadTooLarge } from '../../errors';

const MiB = 1024 * 1024;

/** Decompressed bytes of one container: the zip members read from it, or a gzip's content. */
export const MAX_INFLATED_BYTES = 128 * MiB;
/** Decompressed bytes of one zip member (an XML part of an Office/ODF/EPUB file). */
export const MAX_ZIP_ENTRY_BYTES = 64 * MiB;
/** Entries in a zip container's central directory. */
export const MAX_ZIP_ENTRIES = 10_000;
/** Decompressed size of a gzip upload (the content is then partitioned as its own type). */
export const MAX_GUNZIP_BYTES = MAX_INFLATED_BYTES;
/** Element nesting of an XML part (WordprocessingML tables in tables reach a few dozen). */
export const MAX_XML_DEPTH = 1_000;
/**
 * Elements (start tags) of one XML part or HTML document, counted while parsing: an 872-page
 * handbook's document.xml has about 75,000; a million tree nodes take a few hundred MB of heap.
 */
export const MAX_XML_NODES = 1_000_000;
/**
 * Elements of a part streamed without a tree (a worksheet): only time is at stake, about 1.5 s a
 * million. A sheet formatted down to its last row writes an empty element for each of a million rows
 * (or each styled empty cell), which the tree's cap refused; a 64 MB part holds at most about 5
 * million of the smallest.
 */
export const MAX_STREAMED_XML_NODES = 8_000_000;
/** HTML nesting beyond which a document is read as plain text, with a warning (a DOM walk that deep costs too much). */
export const MAX_HTML_NESTING = 2000;
/** Markdown nesting (blockquote markers + list indentation levels) beyond which it is read as plain text (marked is super-linear in list depth). */
export const MAX_MARKDOWN_NESTING = 200;
/** Elements one document may produce (a 600-page PDF gives about 10,000). */
export const MAX_ELEMENTS = 200_000;
/** Non-empty cells of one workbook (xlsx/xls), all sheets together. */
export const MAX_WORKBOOK_CELLS = 2_000_000;
/** Sheets of one legacy workbook (xls), counted as its sheet list is read (Excel files seldom have more than a few hundred). */
export const MAX_WORKBOOK_SHEETS = 10_000;
/**
 * Characters of cell text one legacy workbook (xls) may expand into: a 14-byte cell record can repeat a
 * 65,535-character shared string, so two million cells could otherwise ask for 130 billion characters.
 */
export const MAX_WORKBOOK_TEXT_CHARS = 128 * MiB;
/** Rows × columns of the bounding box of one sheet's cells (the grid regions are found in). */
export const MAX_SHEET_GRID_CELLS = 5_000_000;
/** Cells of one CSV/TSV table (the 49 MB CSV of the security review has 4 million). */
export const MAX_TABLE_CELLS = 5_000_000;
/**
 * Categories (rows) and series (columns) of the table read from one chart's cached data. Unlike the caps
 * above, a chart beyond them is cut, with a warning, not refused: its data is a copy of a sheet's, and
 * the rest of the document is whole.
 */
export const MAX_CHART_ROWS = 1_000;
export const MAX_CHART_SERIES = 100;
/** Charts of a legacy workbook (.xls) that are read; the rest are left out with a warning. */
export const MAX_XLS_CHARTS = 256;
/** Attachments of one e-mail that are partitioned (with process_attachments). */
export const MAX_EMAIL_ATTACHMENTS = 50;
/** Pixels of an image, from its header before any decoding (about 10k x 6k); Pillow's bomb guard errs at ~179M. */
export const MAX_IMAGE_PIXELS = 64_000_000;
/** Nesting of partitioned documents (attachments of attachments...). */
export const MAX_NESTING = 3;

/** A document exceeded a cap: a 413 that says which. */
export function capExceeded(what: string, limit: number, unit = ''): PayloadTooLarge {
  const shown = unit === 'bytes' ? `${Math.round(limit / MiB)} MB` : `${limit.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`;
  return new PayloadTooLarge(`${what} exceeds the limit of ${shown}`);
}
