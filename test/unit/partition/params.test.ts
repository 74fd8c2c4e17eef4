import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { ValidationError } from '../../../lambdas/errors';
import { parsePartitionForm } from '../../../lambdas/engine/partition/params';

describe('parsePartitionForm', () => {
  it('defaults', () => {
    const r = parsePartitionForm({});
    assert.equal(r.outputFormat, 'application/json');
    assert.equal(r.options.strategy, 'auto');
    assert.equal(r.options.coordinates, false);
    assert.deepEqual(r.options.languages, []);
    assert.equal(r.contentType, undefined);
  });

  it('parses booleans in any case, strategy, ints and strings', () => {
    const r = parsePartitionForm({
      strategy: ['HI_RES'], coordinates: ['TRUE'], include_page_breaks: ['True'], unique_element_ids: ['false'],
      pdf_infer_table_structure: ['False'], starting_page_number: ['3'], output_format: ['text/csv'],
      content_type: ['text/markdown'], gz_uncompressed_content_type: ['application/pdf'], hi_res_model_name: ['yolox'],
      encoding: ['utf-8'], xml_keep_tags: ['true'], include_slide_notes: ['false'],
    });
    assert.equal(r.options.strategy, 'hi_res');
    assert.equal(r.options.coordinates, true);
    assert.equal(r.options.includePageBreaks, true);
    assert.equal(r.options.uniqueElementIds, false);
    assert.equal(r.options.pdfInferTableStructure, false);
    assert.equal(r.options.startingPageNumber, 3);
    assert.equal(r.options.xmlKeepTags, true);
    assert.equal(r.options.includeSlideNotes, false);
    assert.equal(r.options.encoding, 'utf-8');
    assert.equal(r.options.hiResModelName, 'yolox');
    assert.equal(r.outputFormat, 'text/csv');
    assert.equal(r.contentType, 'text/markdown');
    assert.equal(r.gzUncompressedContentType, 'application/pdf');
  });

  it('accepts array fields as repeated values, name[] keys, comma-joined or JSON strings', () => {
    assert.deepEqual(parsePartitionForm({ languages: ['eng', 'fra'] }).options.languages, ['eng', 'fra']);
    assert.deepEqual(parsePartitionForm({ 'languages[]': ['eng', 'kor'] }).options.languages, ['eng', 'kor']);
    assert.deepEqual(parsePartitionForm({ languages: ['eng,deu'] }).options.languages, ['eng', 'deu']);
    assert.deepEqual(parsePartitionForm({ languages: ['["eng","spa"]'] }).options.languages, ['eng', 'spa']);
    const r = parsePartitionForm({ ocr_languages: ['eng+kor'] });
    assert.deepEqual(r.options.ocrLanguages, ['eng', 'kor']);
    assert.deepEqual(r.options.languages, ['eng', 'kor']);
    assert.deepEqual(parsePartitionForm({ 'extract_image_block_types[]': ['image', 'table'] }).options.extractImageBlockTypes, ['Image', 'Table']);
    assert.deepEqual(parsePartitionForm({ skip_infer_table_types: ['pdf,JPG'] }).options.skipInferTableTypes, ['pdf', 'jpg']);
  });

  it('ignores the SDK client-only fields, unknown fields and chunking fields', () => {
    const r = parsePartitionForm({
      split_pdf_page: ['true'], split_pdf_concurrency_level: ['5'], split_pdf_page_range: ['[1,3]'], split_pdf_allow_failed: ['false'],
      tracking_enabled: ['yes'], chunking_strategy: ['by_title'], max_characters: ['not-a-number'], something_else: ['x'],
    });
    assert.equal(r.options.strategy, 'auto');
  });

  it('maps vlm fields', () => {
    const r = parsePartitionForm({ strategy: ['vlm'], vlm_model_provider: ['Anthropic'], vlm_model: ['claude-x'] });
    assert.equal(r.options.strategy, 'vlm');
    assert.deepEqual(r.options.vlm, { provider: 'anthropic', model: 'claude-x' });
  });

  it('rejects invalid values with FastAPI-style issues', () => {
    const bad = (fields: Record<string, string[]>, field: string, type: string) => {
      assert.throws(() => parsePartitionForm(fields), (err: unknown) => {
        assert.ok(err instanceof ValidationError);
        assert.equal(err.status, 422);
        const issue = err.issues.find((i) => i.loc[1] === field);
        assert.ok(issue, `issue for ${field}`);
        assert.deepEqual(issue.loc, ['body', field]);
        assert.equal(issue.type, type);
        assert.ok(issue.msg.length > 0);
        return true;
      });
    };
    bad({ strategy: ['turbo'] }, 'strategy', 'enum');
    bad({ coordinates: ['maybe'] }, 'coordinates', 'bool_parsing');
    bad({ starting_page_number: ['two'] }, 'starting_page_number', 'int_parsing');
    bad({ starting_page_number: ['0'] }, 'starting_page_number', 'greater_than_equal');
    bad({ output_format: ['application/xml'] }, 'output_format', 'enum');
    bad({ encoding: ['not-an-encoding'] }, 'encoding', 'value_error');
    bad({ languages: ['en g'] }, 'languages', 'value_error');
  });

  it('collects every invalid field in one error', () => {
    try {
      parsePartitionForm({ strategy: ['x'], coordinates: ['perhaps'] });
      assert.fail('expected a ValidationError');
    } catch (err) {
      assert.ok(err instanceof ValidationError);
      assert.deepEqual(err.issues.map((i) => i.loc[1]).sort(), ['coordinates', 'strategy']);
    }
  });
});

test('strategy od_only runs as hi_res and says so in the warnings (no silent substitute)', async () => {
  const { partitionDocument } = await import('../../../lambdas/engine/partition/pipeline');
  const r = await partitionDocument({ data: new TextEncoder().encode('A short note.'), filename: 'note.txt' }, { strategy: 'od_only' });
  assert.ok(r.warnings.some((w) => /od_only is run as hi_res/.test(w)), r.warnings.join(' | '));
  const plain = await partitionDocument({ data: new TextEncoder().encode('A short note.'), filename: 'note.txt' }, { strategy: 'hi_res' });
  assert.ok(!plain.warnings.some((w) => /od_only/.test(w)));
});
