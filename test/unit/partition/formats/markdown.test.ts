// Markdown as users write it (READMEs, docs pages, notes): what CommonMark alone misreads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';

test('md: YAML or TOML front matter is one paragraph of its lines, not a heading; the document after it reads as usual', async () => {
  const yaml = '---\ntitle: Field Guide to Garden Birds\nauthor: Ruth Miles\ntags:\n  - birds\n  - gardens\n---\n\n## Feeding\n\nSeed feeders draw finches through the winter months.\n';
  const els = await partition('md', yaml);
  assert.notEqual(els[0]!.type, 'Title');
  assert.deepEqual(els.map((e) => [e.type === 'Title' ? 'Title' : 'text', e.text]), [
    ['text', 'title: Field Guide to Garden Birds author: Ruth Miles tags: - birds - gardens'],
    ['Title', 'Feeding'],
    ['text', 'Seed feeders draw finches through the winter months.'],
  ]);
  const toml = '+++\r\ntitle = "Release checklist"\r\ndraft = false\r\n+++\r\n# Checklist\r\n\r\n- Tag the release\r\n';
  assert.deepEqual((await partition('md', toml)).map((e) => [e.type, e.text]), [
    ['UncategorizedText', 'title = "Release checklist" draft = false'],
    ['Title', 'Checklist'],
    ['ListItem', 'Tag the release'],
  ]);
  // a rule opening the document, then a setext heading that is no key: CommonMark's reading stays
  const ruled = '---\nQuarterly summary\n---\n\nSales rose in every region this quarter.\n';
  assert.deepEqual((await partition('md', ruled)).map((e) => [e.type, e.text]), [
    ['Title', 'Quarterly summary'],
    ['NarrativeText', 'Sales rose in every region this quarter.'],
  ]);
});
