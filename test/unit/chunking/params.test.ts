import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validationIssues } from '../../support/validation-issues';
import { chunkElements, parseChunkNode, parseChunkingForm } from '../../../lambdas/engine/chunking/index';

const issues = validationIssues;

test('no chunking_strategy means no chunking', () => {
  assert.equal(parseChunkingForm({ max_characters: ['100'] }), undefined);
  assert.equal(parseChunkingForm({ chunking_strategy: [''] }), undefined);
});

test('form strings are coerced', () => {
  const o = parseChunkingForm({
    chunking_strategy: ['by_title'],
    max_characters: ['1000'],
    new_after_n_chars: ['800'],
    overlap: ['50'],
    overlap_all: ['true'],
    combine_under_n_chars: ['200'],
    multipage_sections: ['false'],
    include_orig_elements: ['False'],
    unique_element_ids: ['true'],
  });
  assert.deepEqual(o, {
    strategy: 'by_title',
    max_characters: 1000,
    new_after_n_chars: 800,
    overlap: 50,
    overlap_all: true,
    combine_text_under_n_chars: 200,
    multipage_sections: false,
    include_orig_elements: false,
    unique_element_ids: true,
  });
  assert.deepEqual(parseChunkingForm({ chunking_strategy: ['by_similarity'], similarity_threshold: ['0.7'] }), { strategy: 'by_similarity', similarity_threshold: 0.7 });
});

test('invalid combinations are 422 with the field in loc', () => {
  assert.deepEqual(
    issues(() => parseChunkingForm({ chunking_strategy: ['basic'], max_characters: ['100'], overlap: ['100'] })).map((i) => i.loc),
    [['body', 'overlap']],
  );
  assert.match(issues(() => parseChunkingForm({ chunking_strategy: ['basic'], overlap: ['500'] }))[0]!.msg, /less than 'max_characters'/);
  assert.deepEqual(issues(() => parseChunkingForm({ chunking_strategy: ['basic'], max_characters: ['-5'] }))[0]!.loc, ['body', 'max_characters']);
  assert.deepEqual(issues(() => parseChunkingForm({ chunking_strategy: ['basic'], new_after_n_chars: ['-1'] }))[0]!.loc, ['body', 'new_after_n_chars']);
  assert.deepEqual(issues(() => parseChunkingForm({ chunking_strategy: ['basic'], overlap: ['-1'] }))[0]!.loc, ['body', 'overlap']);
  assert.deepEqual(issues(() => parseChunkingForm({ chunking_strategy: ['by_title'], combine_under_n_chars: ['-1'] }))[0]!.loc, ['body', 'combine_under_n_chars']);
  const unknown = issues(() => parseChunkingForm({ chunking_strategy: ['by_magic'] }))[0]!;
  assert.deepEqual(unknown.loc, ['body', 'chunking_strategy']);
  assert.match(unknown.msg, /basic, by_title, by_page, by_similarity/);
  for (const t of ['1.5', '-0.1', 'abc']) {
    assert.deepEqual(issues(() => parseChunkingForm({ chunking_strategy: ['by_similarity'], similarity_threshold: [t] }))[0]!.loc, ['body', 'similarity_threshold']);
  }
  const notInt = issues(() => parseChunkingForm({ chunking_strategy: ['basic'], max_characters: ['12.5'] }))[0]!;
  assert.equal(notInt.type, 'int_parsing');
  // -- several problems are all reported --
  assert.equal(issues(() => parseChunkingForm({ chunking_strategy: ['basic'], max_characters: ['x'], overlap: ['y'] })).length, 2);
});

test('job nodes: subtype selects the strategy; loc carries the node prefix', () => {
  assert.deepEqual(parseChunkNode('chunk_by_title', { max_characters: 1500, new_after_n_chars: '1000', overlap: 0, combine_text_under_n_chars: 100 }), {
    strategy: 'by_title',
    max_characters: 1500,
    new_after_n_chars: 1000,
    overlap: 0,
    combine_text_under_n_chars: 100,
    include_orig_elements: false,
  });
  assert.equal(parseChunkNode('chunk_by_character', {}).strategy, 'basic');
  assert.equal(parseChunkNode('chunk_by_page', null).strategy, 'by_page');
  assert.equal(parseChunkNode('chunk_by_similarity', { similarity_threshold: 0.3 }).similarity_threshold, 0.3);
  assert.deepEqual(issues(() => parseChunkNode('chunk_by_title', { max_characters: 100, overlap: 200 }, ['job_nodes', 1]))[0]!.loc, ['job_nodes', 1, 'settings', 'overlap']);
  assert.deepEqual(issues(() => parseChunkNode('chunk_by_magic', {}, ['job_nodes', 1]))[0]!.loc, ['job_nodes', 1, 'subtype']);
  assert.deepEqual(issues(() => parseChunkNode('chunk_by_title', 'nope', ['job_nodes', 0]))[0]!.loc, ['job_nodes', 0, 'settings']);
  assert.deepEqual(issues(() => parseChunkNode('chunk_by_similarity', { similarity_threshold: 2 }, ['job_nodes', 3]))[0]!.loc, ['job_nodes', 3, 'settings', 'similarity_threshold']);
});

test('chunkElements itself rejects invalid options', () => {
  issues(() => chunkElements([], { strategy: 'basic', max_characters: 10, overlap: 10 }));
  issues(() => chunkElements([], { strategy: 'by_similarity', similarity_threshold: -1 }));
});
