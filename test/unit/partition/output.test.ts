import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { elementsToCsv, pyRepr } from '../../../lambdas/engine/partition/output';
import type { Element } from '../../../lambdas/engine/elements';

describe('elementsToCsv', () => {
  it('flattens metadata, drops empty columns and quotes minimally', () => {
    const els: Element[] = [
      { type: 'Title', element_id: 'a1', text: 'Hello, world', metadata: { filename: 'x.pdf', page_number: 1, languages: ['eng'] } },
      { type: 'NarrativeText', element_id: 'b2', text: 'He said "hi"\nthen left', metadata: { filename: 'x.pdf', page_number: 2, languages: ['eng'], coordinates: { points: [[1, 2], [3, 4]], system: 'PixelSpace', layout_width: 10, layout_height: 20 } } },
    ];
    const csv = elementsToCsv(els);
    const lines = csv.trimEnd().split('\n');
    assert.equal(lines[0], 'type,element_id,text,filename,page_number,languages,coordinates_points,coordinates_system,coordinates_layout_width,coordinates_layout_height');
    assert.equal(lines[1], "Title,a1,\"Hello, world\",x.pdf,1,['eng'],,,,");
    assert.ok(csv.includes('"He said ""hi""\nthen left"'));
    assert.ok(csv.includes('"[[1, 2], [3, 4]]",PixelSpace,10,20'));
    assert.ok(csv.endsWith('\n'));
  });

  it('renders values like Python', () => {
    assert.equal(pyRepr(['a', "b'c"]), `['a', "b'c"]`);
    assert.equal(pyRepr(true), 'True');
    assert.equal(pyRepr(null), 'None');
    assert.equal(pyRepr({ k: 1 }), "{'k': 1}");
  });
});
