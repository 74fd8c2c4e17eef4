// PPTX review comments (classic and modern threaded parts) and the bullets a body placeholder inherits
// from its layout and master, on presentations built in the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { context, partition, partitionWithHierarchy } from './helpers';
import { FORMAT_PARTITIONERS } from '../../../../lambdas/engine/partition/formats/index';

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const P188 = 'xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const rels = (body: string): string => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`;
const rel = (id: string, target: string): string => `<Relationship Id="${id}" Type="x" Target="${target}"/>`;
const para = (t: string, pPr = ''): string => `<a:p>${pPr ? `<a:pPr>${pPr}</a:pPr>` : ''}<a:r><a:t>${t}</a:t></a:r></a:p>`;
const shape = (y: number, ph: string, paras: string, lstStyle = ''): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${y}"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${lstStyle ? `<a:lstStyle>${lstStyle}</a:lstStyle>` : ''}${paras}</p:txBody></p:sp>`;

interface Slide {
  shapes: string;
  /** Extra relationship targets of the slide (comment parts). */
  targets?: string[];
}

function presentation(slides: Slide[], parts: Record<string, string> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  slides.forEach((s, k) => {
    files[`ppt/slides/slide${k + 1}.xml`] = strToU8(`<p:sld ${P}><p:cSld><p:spTree>${s.shapes}</p:spTree></p:cSld></p:sld>`);
    const extra = (s.targets ?? []).map((t, j) => rel(`rId${j + 5}`, t)).join('');
    files[`ppt/slides/_rels/slide${k + 1}.xml.rels`] = strToU8(rels(rel('rId1', '../slideLayouts/slideLayout1.xml') + extra));
  });
  files['ppt/presentation.xml'] = strToU8(`<p:presentation ${P}><p:sldIdLst>${slides.map((_, k) => `<p:sldId id="${256 + k}" r:id="rId${k + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`);
  files['ppt/_rels/presentation.xml.rels'] = strToU8(rels(slides.map((_, k) => rel(`rId${k + 1}`, `slides/slide${k + 1}.xml`)).join('')));
  for (const [k, v] of Object.entries(parts)) files[k] = strToU8(v);
  return zipSync(files);
}

const title = (t: string): string => shape(0, '<p:ph type="title"/>', para(t));

test('pptx comments: classic and modern (with replies) after the slide content, with author and time; off with include_slide_notes=false', async () => {
  const classic = `<p:cmLst ${P}><p:cm authorId="0" dt="2024-03-01T09:30:00" idx="1"><p:pos x="10" y="10"/><p:text>Check the totals on this slide</p:text></p:cm><p:cm authorId="1" dt="2024-03-02T11:00:00.125" idx="1"><p:pos x="10" y="10"/><p:text>Totals fixed</p:text></p:cm></p:cmLst>`;
  const authors = `<p:cmAuthorLst ${P}><p:cmAuthor id="0" name="Ann Lee" initials="AL" lastIdx="1" clrIdx="0"/><p:cmAuthor id="1" name="Bo Park" initials="BP" lastIdx="1" clrIdx="1"/></p:cmAuthorLst>`;
  const body = (t: string): string => `<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${t}</a:t></a:r></a:p></p188:txBody>`;
  const modern = `<p188:cmLst ${P188}><p188:cm id="{C1}" authorId="{A2}" created="2024-05-06T07:08:09.010"><pc:sldMkLst xmlns:pc="pc"><pc:docMk/></pc:sldMkLst>${body('Use the newer figures')}<p188:replyLst><p188:reply id="{R1}" authorId="{A1}" created="2024-05-07T08:00:00.000">${body('Done, thanks')}</p188:reply></p188:replyLst></p188:cm></p188:cmLst>`;
  const modernAuthors = `<p188:authorLst ${P188}><p188:author id="{A1}" name="Cy Diaz" initials="CD" userId="x" providerId="None"/><p188:author id="{A2}" name="Di Ekko" initials="DE" userId="y" providerId="None"/></p188:authorLst>`;
  const doc = presentation(
    [
      { shapes: title('Budget') + shape(100, '<p:ph idx="1"/>', para('The budget grows by a tenth next year.', '<a:buNone/>')), targets: ['../comments/comment1.xml'] },
      { shapes: title('Plan'), targets: ['../comments/modernComment_101_5A3B.xml'] },
    ],
    { 'ppt/comments/comment1.xml': classic, 'ppt/commentAuthors.xml': authors, 'ppt/comments/modernComment_101_5A3B.xml': modern, 'ppt/authors.xml': modernAuthors },
  );
  const els = await partitionWithHierarchy('pptx', doc);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number]), [
    ['Title', 'Budget', 1],
    ['NarrativeText', 'The budget grows by a tenth next year.', 1],
    ['NarrativeText', '[author: Ann Lee (AL), time: 2024-03-01T09:30:00]: Check the totals on this slide', 1],
    ['NarrativeText', '[author: Bo Park (BP), time: 2024-03-02T11:00:00.125]: Totals fixed', 1],
    ['Title', 'Plan', 2],
    ['NarrativeText', '[author: Di Ekko (DE), time: 2024-05-06T07:08:09.010]: Use the newer figures', 2],
    ['NarrativeText', '[author: Cy Diaz (CD), time: 2024-05-07T08:00:00.000]: Done, thanks', 2],
  ]);
  assert.equal(els[2]!.metadata.parent_id, els[0]!.element_id);
  const without = await partition('pptx', doc, { includeSlideNotes: false });
  assert.deepEqual(without.map((e) => e.text), ['Budget', 'The budget grows by a tenth next year.', 'Plan']);
});

test('pptx bullets inherited: a body placeholder is a list by the master\'s body style unless the layout, the shape or the paragraph says no', async () => {
  const lvl = (n: number, bullet: string): string => `<a:lvl${n}pPr marL="${n * 342900}">${bullet}</a:lvl${n}pPr>`;
  const master = `<p:sldMaster ${P}><p:cSld><p:spTree>${shape(0, '<p:ph type="title"/>', '')}${shape(100, '<p:ph type="body" idx="1"/>', '')}</p:spTree></p:cSld><p:txStyles><p:titleStyle>${lvl(1, '<a:buNone/>')}</p:titleStyle><p:bodyStyle>${lvl(1, '<a:buChar char="•"/>')}${lvl(2, '<a:buChar char="–"/>')}</p:bodyStyle><p:otherStyle>${lvl(1, '')}</p:otherStyle></p:txStyles></p:sldMaster>`;
  // the layout's subtitle says no bullets (as PowerPoint's title-slide layout does)
  const layout = `<p:sldLayout ${P}><p:cSld><p:spTree>${shape(0, '<p:ph type="title"/>', '')}${shape(100, '<p:ph idx="1"/>', '')}${shape(200, '<p:ph type="subTitle" idx="2"/>', '', lvl(1, '<a:buNone/>'))}</p:spTree></p:cSld></p:sldLayout>`;
  const slide = {
    shapes:
      title('Features') +
      shape(100, '<p:ph idx="1"/>', para('Reads many formats') + para('Word and slides', '') .replace('<a:p>', '<a:p><a:pPr lvl="1"/>') + para('Exports clean data') + para('No bullet here, it says so itself.', '<a:buNone/>')) +
      shape(300, '<p:ph type="subTitle" idx="2"/>', para('A subtitle line')) +
      shape(400, '<p:ph type="body" idx="3"/>', para('Plain body text of a shape that turns bullets off.'), lvl(1, '<a:buNone/>')) +
      shape(500, '', para('A text box is no list')),
  };
  const doc = presentation([slide], {
    'ppt/slideLayouts/slideLayout1.xml': layout,
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': rels(rel('rId1', '../slideMasters/slideMaster1.xml')),
    'ppt/slideMasters/slideMaster1.xml': master,
  });
  const els = await partition('pptx', doc);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['Title', 'Features', 0],
    ['ListItem', 'Reads many formats', 0],
    ['ListItem', 'Word and slides', 1],
    ['ListItem', 'Exports clean data', 0],
    ['NarrativeText', 'No bullet here, it says so itself.', undefined],
    ['Title', 'A subtitle line', 1],
    ['NarrativeText', 'Plain body text of a shape that turns bullets off.', undefined],
    ['NarrativeText', 'A text box is no list', undefined],
  ]);
});

test('pptx: a comment part past the XML caps is left out with a warning; the slide stands', async () => {
  const deep = `<p:cmLst ${P}>${'<p:x>'.repeat(1500)}${'</p:x>'.repeat(1500)}</p:cmLst>`;
  const doc = presentation([{ shapes: title('Budget'), targets: ['../comments/comment1.xml'] }], { 'ppt/comments/comment1.xml': deep });
  const ctx = context('pptx');
  const els = await FORMAT_PARTITIONERS.pptx!(doc, ctx);
  assert.deepEqual(els.map((e) => e.text), ['Budget']);
  assert.match(ctx.warnings[0]!, /comments could not be read/);
});
