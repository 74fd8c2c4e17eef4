// PPTX reading order inside groups: a group's shapes are placed in its own child coordinates
// (a:chOff/a:chExt mapped onto the group's a:off/a:ext) and are read top to bottom, left to right
// there, as the slide's own shapes are, whatever order the XML lists them in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { partition } from './helpers';

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const box = (x: number, y: number, text: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="b"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="1000" cy="200"/></a:xfrm></p:spPr>` +
  `<p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
const group = (off: [number, number], ext: [number, number], chExt: [number, number], members: string): string =>
  `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="9" name="g"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="${off[0]}" y="${off[1]}"/>` +
  `<a:ext cx="${ext[0]}" cy="${ext[1]}"/><a:chOff x="0" y="0"/><a:chExt cx="${chExt[0]}" cy="${chExt[1]}"/></a:xfrm></p:grpSpPr>${members}</p:grpSp>`;

function deck(spTree: string): Uint8Array {
  return zipSync({
    'ppt/presentation.xml': strToU8(`<p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="slides/slide1.xml"/></Relationships>'),
    'ppt/slides/slide1.xml': strToU8(`<p:sld ${P}><p:cSld><p:spTree>${spTree}</p:spTree></p:cSld></p:sld>`),
  });
}

test('pptx groups: a group\'s shapes (a nested group as one) are read top to bottom, left to right in the group\'s coordinates, not in XML order', async () => {
  // a flow chart grouped from its steps, drawn last step first; beside it a nested group of two notes
  const steps = group([457200, 1500000], [4000000, 3000000], [2000000, 2500000],
    box(0, 2000000, 'Step 3: deploy to production.') + box(0, 1000000, 'Step 2: review the pull request.') + box(0, 0, 'Step 1: write the change.'));
  // child units 1000 times larger than EMU: a top 100 units lower is 100000 EMU lower, the next row (not a hair off)
  const notes = group([5000000, 1500000], [3000000, 2000000], [3000, 2000],
    group([0, 1000], [3000, 1000], [3000, 1000], box(1500, 0, 'Upper right note.') + box(0, 100, 'Lower left note.'))
    + box(0, 0, 'Upper note of the second group.'));
  const els = await partition('pptx', deck(notes + steps));
  assert.deepEqual(els.map((e) => e.text), [
    'Step 1: write the change.',
    'Step 2: review the pull request.',
    'Step 3: deploy to production.',
    'Upper note of the second group.',
    'Upper right note.',
    'Lower left note.',
  ]);
});
