// A table of terms and their descriptions (issue 29), as LaTeX sets `\begin{tabular}{lp{8cm}}` for a
// command's options: a short term, a description wrapped over lines set in at its column's edge, and
// a term only 12 pt (under a segment gap at 11 pt) before its description. It read as prose columns:
// the terms were list items without their dashes, the descriptions one paragraph after them all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import type { Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const words = typeset({ size: 11 });

const page = (ws: Word[]) => layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(ws), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true, tableHtml: true });

describe('a table of terms and their wrapped descriptions', () => {
  it('is a table of two columns, each description in its row, a term set close to its description parted from it', () => {
    const rows: [string, string[]][] = [
      ['Option', ['Meaning']],
      ['-site', ['The site number whose record is', 'exported, as printed on the', 'housing']],
      ['-from', ['The first day to export, in the', 'form year-month-day']],
      ['-format', ['The file format of the export:', 'csv or json']],
    ];
    const ws: Word[] = [...words('The options of the export command are listed below for reference.', 72, 60)];
    let y = 90;
    for (const [term, desc] of rows) {
      ws.push(...words(term, 95, y));
      desc.forEach((d, k) => ws.push(...words(d, 144, y + 13.5 * k)));
      y += 13.5 * desc.length;
    }
    // "-output" ends 11 pt before its description: one segment until the table parts it
    ws.push(...words('-output', 95, y), ...words('The file the export is written to', 144, y));
    const els = page(ws);
    const table = els.find((e) => e.type === 'Table');
    assert.ok(table, JSON.stringify(els.map((e) => [e.type, e.text])));
    assert.equal(table.metadata.text_as_html, '<table><tr><td>Option</td><td>Meaning</td></tr>'
      + '<tr><td>-site</td><td>The site number whose record is exported, as printed on the housing</td></tr>'
      + '<tr><td>-from</td><td>The first day to export, in the form year-month-day</td></tr>'
      + '<tr><td>-format</td><td>The file format of the export: csv or json</td></tr>'
      + '<tr><td>-output</td><td>The file the export is written to</td></tr></table>');
  });

  it('leaves numbered items and references with hanging lines as text', () => {
    const ws: Word[] = [];
    let y = 90;
    for (const [label, lines] of [['1.', ['Charge the field laptop the evening', 'before the visit']], ['2.', ['Pack the flask and the two', 'brushes']], ['3.', ['Download the site list', 'for the day']], ['[4]', ['A. Author. Energy use of', 'telemetry networks. 2019.']]] as [string, string[]][]) {
      ws.push(...words(label, 95, y));
      lines.forEach((d, k) => ws.push(...words(d, 120, y + 13.5 * k)));
      y += 13.5 * lines.length;
    }
    const els = page(ws);
    assert.ok(!els.some((e) => e.type === 'Table'), JSON.stringify(els.map((e) => [e.type, e.text])));
  });
});
