// A code listing or a terminal's output aligns its words with runs of spaces ("data0     up     mtu 9000"):
// in a monospaced font such a run is as wide as a column gap, so the line came apart into segments,
// each a paragraph of its own ("up" a Title). Segments of one line in a monospaced font a few spaces
// apart are one again (pdf/layout.ts joinMonoRuns); lines that align into columns are still a table.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { onePagePdf } from '../../../support/pdf-writer';

after(async () => { await shutdownPagePool(); });

const FONTS = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>'];
const sans = (y: number, t: string) => `BT /F1 10 Tf 72 ${y} Td (${t}) Tj ET`;
const mono = (y: number, t: string) => `BT /F2 9 Tf 80 ${y} Td (${t}) Tj ET`;
const elements = async (content: string[]) =>
  (await partition({ data: onePagePdf(content.join('\n'), FONTS), filename: 'manual.pdf' }, { strategy: 'hi_res' })).elements.map((e) => [e.type, e.text] as const);

describe('a code listing in a monospaced font', () => {
  it('a line aligned with runs of spaces stays one line of its listing', async () => {
    const out = await elements([
      sans(700, 'You can also read the address back from the command line:'),
      mono(680, '$ storagectl net set data0 --address 10.20.30.40/24'),
      mono(669, '$ storagectl net show data0'),
      mono(658, 'data0     up     10.20.30.40/24     mtu 9000'),
      sans(630, 'The address is kept when the server restarts.'),
    ]);
    assert.equal(out.length, 3, JSON.stringify(out));
    assert.match(out[1]![1], /show data0 data0 up 10\.20\.30\.40\/24 mtu 9000$/);
  });

  it('a listing whose lines are indented under a short first line is one element', async () => {
    // Browsers and word processors print a <pre> block as lines of a monospaced font, the body of a
    // function set in under its first line: the rule for a heading over an indented paragraph split
    // "def mean(values):" from its body, which became a Title.
    const at = (x: number, y: number, t: string) => `BT /F2 9 Tf ${x} ${y} Td (${t}) Tj ET`;
    const out = await elements([
      sans(700, 'The mean of the readings is computed by the function below, then rounded.'),
      at(80, 680, 'def mean(values):'),
      at(101.6, 669, 'total = sum(values)'),
      at(101.6, 658, 'return total / len(values)'),
      at(80, 647, 'print(mean([1, 2, 3]))'),
      sans(620, 'The result is kept with the other figures of the survey.'),
    ]);
    assert.equal(out.length, 3, JSON.stringify(out));
    assert.equal(out[1]![1], 'def mean(values): total = sum(values) return total / len(values) print(mean([1, 2, 3]))');
    assert.notEqual(out[1]![0], 'Title');
  });

  it('lines in columns are still a table', async () => {
    const out = await elements([
      sans(700, 'The pods of the deployment are listed below with their state:'),
      mono(680, 'NAME       STATUS     AGE'),
      mono(669, 'web-1      Running    5d'),
      mono(658, 'web-2      Pending    1h'),
      mono(647, 'db-0       Running    9d'),
    ]);
    assert.ok(out.some(([t, x]) => t === 'Table' && x === 'NAME STATUS AGE web-1 Running 5d web-2 Pending 1h db-0 Running 9d'), JSON.stringify(out));
  });

  it('a listing set loosely (a web page\'s code block printed, its line height 1.5 or more) is one element', async () => {
    // Courier 9 pt lines 15 points apart: more than half the text size between their boxes (the gap
    // that parts paragraphs of proportional text)
    const out = await elements([
      sans(700, 'The command copies a bucket into a local directory:'),
      mono(680, 'sync [OPTIONS] SOURCE DESTINATION'),
      mono(665, 'sync --dry-run s3://bucket/path ./local-dir'),
      sans(640, 'Run it without --dry-run to copy the files.'),
    ]);
    assert.equal(out.length, 3, JSON.stringify(out));
    assert.deepEqual(out[1], ['NarrativeText', 'sync [OPTIONS] SOURCE DESTINATION sync --dry-run s3://bucket/path ./local-dir']);
  });
});
