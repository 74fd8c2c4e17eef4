// <img> in HTML (and Markdown images, rendered to <img>): an Image element as the library's HTML
// partitioner makes one (its ImageBlock): text the alt text, metadata.image_url the source, or
// image_base64 and image_mime_type for an inline data: URI; an image without a source makes nothing,
// nor (unlike the library) one without alt text: decorative (alt="") or a spacer.
// An image inside running text (an icon, a badge, a markdown image mid-sentence) leaves its paragraph
// whole and follows it; on its own, or before any text of its block, it stands where it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition, types } from './helpers';

test('html: <img> becomes an Image with its alt text and URL; inside a paragraph, after it', async () => {
  const html = `<h1>Birds</h1><p>The heron stands in the shallow water.</p>
    <img src="heron.png" alt="A grey heron">
    <p>Before the picture <img data-src="lazy.jpg" src="placeholder.gif" alt=" Lazy   one "> after the picture.</p>
    <img alt="no source at all"><img src=""><img src="spacer.gif" alt=""><img src="pixel.gif">
    <img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline chart">`;
  const els = await partition('html', html);
  assert.deepEqual(types(els), ['Title', 'NarrativeText', 'Image', 'NarrativeText', 'Image', 'Image']);
  const [, , heron, paragraph, lazy, inline] = els;
  assert.equal(heron!.text, 'A grey heron');
  assert.equal(heron!.metadata.image_url, 'heron.png');
  assert.equal(paragraph!.text, 'Before the picture after the picture.');
  assert.equal(lazy!.text, 'Lazy one');
  assert.equal(lazy!.metadata.image_url, 'lazy.jpg', 'data-src (lazy loading) wins over src');
  assert.equal(inline!.text, 'Inline chart');
  assert.equal(inline!.metadata.image_mime_type, 'image/png');
  assert.equal(inline!.metadata.image_base64, 'iVBORw0KGgo=');
  assert.equal(inline!.metadata.image_url, undefined);
});

test('md: an image line is an Image with its alt text and URL', async () => {
  const els = await partition('md', '# Guide\n\nThe diagram shows how the parts fit together.\n\n![Architecture diagram](https://d.test/arch.svg)\n');
  assert.deepEqual(types(els), ['Title', 'NarrativeText', 'Image']);
  assert.equal(els[2]!.text, 'Architecture diagram');
  assert.equal(els[2]!.metadata.image_url, 'https://d.test/arch.svg');
});

test('md: an image mid-sentence leaves the sentence whole and follows it; an image opening its line stands before the text', async () => {
  const els = await partition('md', 'The build status ![passing](https://d.test/ok.svg) is checked on every commit to the main branch.\n\n![Logo](logo.png) Welcome to the project, which turns documents into elements.\n');
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'The build status is checked on every commit to the main branch.'],
    ['Image', 'passing'],
    ['Image', 'Logo'],
    ['NarrativeText', 'Welcome to the project, which turns documents into elements.'],
  ]);
});
