// SmartArt on a PowerPoint slide, built in the test as PowerPoint writes it: the diagram's data part
// (points, with the presentation and transition points PowerPoint adds, and parent-of connections)
// and the laid-out drawing part beside it. The nodes' text comes once, in the outline's order, as
// ListItems with their depth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { partition } from './helpers';

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const D = 'xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const text = (...paras: string[]): string =>
  `<dgm:t><a:bodyPr/><a:lstStyle/>${paras.map((t) => (t ? `<a:p><a:r><a:rPr lang="en-US"/><a:t>${t}</a:t></a:r></a:p>` : '<a:p><a:endParaRPr lang="en-US"/></a:p>')).join('')}</dgm:t>`;
const node = (id: string, ...paras: string[]): string => `<dgm:pt modelId="{${id}}"><dgm:prSet phldrT="[Text]"/><dgm:spPr/>${text(...paras)}</dgm:pt>`;
const other = (id: string, type: string): string => `<dgm:pt modelId="{${id}}" type="${type}"><dgm:prSet/><dgm:spPr/>${type === 'pres' ? '' : text('')}</dgm:pt>`;
const parOf = (src: string, dest: string, ord: number): string => `<dgm:cxn modelId="{c-${dest}}" srcId="{${src}}" destId="{${dest}}" srcOrd="${ord}" destOrd="0"/>`;

function deck(): Uint8Array {
  // written out of outline order: the second phase and a task before the first phase
  const data = `<dgm:dataModel ${D}><dgm:ptLst>${other('root', 'doc')}${node('p2', 'Build')}${node('t1', 'Interview ten customers')}${node('p1', 'Discover')}`
    + `${node('t2', 'Write the service', 'Load test it')}${node('empty', '')}${other('tr1', 'parTrans')}${other('tr2', 'sibTrans')}${other('pr1', 'pres')}</dgm:ptLst>`
    + `<dgm:cxnLst>${parOf('root', 'p2', 1)}${parOf('root', 'p1', 0)}${parOf('p1', 't1', 0)}${parOf('p2', 't2', 0)}${parOf('root', 'empty', 2)}`
    + '<dgm:cxn modelId="{x1}" type="presOf" srcId="{p1}" destId="{pr1}" srcOrd="0" destOrd="0"/></dgm:cxnLst></dgm:dataModel>';
  // the cached layout PowerPoint keeps beside the data: the same text again, not to be read twice
  const drawing = `<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree><dsp:sp><dsp:txBody><a:p><a:r><a:t>Discover</a:t></a:r></a:p></dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>`;
  const frame = '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Diagram 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="1000000"/><a:ext cx="8000000" cy="4000000"/></p:xfrm>'
    + '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rId2" r:lo="rId3" r:qs="rId4" r:cs="rId5"/></a:graphicData></a:graphic></p:graphicFrame>';
  const title = '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>Project Phases</a:t></a:r></a:p></p:txBody></p:sp>';
  return zipSync({
    'ppt/presentation.xml': strToU8(`<p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/slide" Target="slides/slide1.xml"/></Relationships>`),
    'ppt/slides/slide1.xml': strToU8(`<p:sld ${P}><p:cSld><p:spTree>${frame}${title}</p:spTree></p:cSld></p:sld>`),
    'ppt/slides/_rels/slide1.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="${R}/diagramData" Target="../diagrams/data1.xml"/>`
      + `<Relationship Id="rId6" Type="http://schemas.microsoft.com/office/2007/relationships/diagramDrawing" Target="../diagrams/drawing1.xml"/></Relationships>`),
    'ppt/diagrams/data1.xml': strToU8(data),
    'ppt/diagrams/drawing1.xml': strToU8(drawing),
  });
}

test('pptx SmartArt: the nodes\' text in outline order (not the data part\'s order), as ListItems by depth, once; empty nodes and layout points give nothing', async () => {
  const els = await partition('pptx', deck());
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['Title', 'Project Phases', 0],
    ['ListItem', 'Discover', 0],
    ['ListItem', 'Interview ten customers', 1],
    ['ListItem', 'Build', 0],
    ['ListItem', 'Write the service', 1],
    ['ListItem', 'Load test it', 1],
  ]);
});
