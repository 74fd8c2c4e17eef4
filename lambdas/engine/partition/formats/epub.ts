// EPUB partitioner: META-INF/container.xml -> package document -> spine; each chapter's XHTML is
// partitioned by the HTML partitioner in spine order.
import { posix } from 'node:path';
import type { Element } from '../../elements';
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { attr, childElements, corrupt, descendants, detectAndDecode, firstChild, parseXml, readZip, zipText } from './common';
import { htmlToElements } from './html';
import { appendAll } from '../../elements';

export const partitionEpub: FormatPartitioner = async (data, ctx) => {
  const files = readZip(data, 'epub', (n) => !/\.(jpe?g|png|gif|svg|ttf|otf|woff2?|mp3|mp4|css)$/i.test(n));
  const container = zipText(files, 'META-INF/container.xml');
  if (!container) throw new UnprocessableDocument('epub: META-INF/container.xml is missing');
  try {
    const rootfile = descendants(parseXml(container), 'rootfile')[0];
    const opfPath = rootfile ? attr(rootfile, 'full-path') : undefined;
    const opfXml = opfPath ? zipText(files, opfPath) : undefined;
    if (!opfPath || !opfXml) throw new UnprocessableDocument('epub: package document not found');
    const opf = parseXml(opfXml);
    const pkg = firstChild(opf, 'package');
    const manifest = pkg ? firstChild(pkg, 'manifest') : undefined;
    const spine = pkg ? firstChild(pkg, 'spine') : undefined;
    const items = new Map<string, { href: string; type: string }>();
    for (const it of manifest ? childElements(manifest, 'item') : []) {
      const id = it.attribs['id'];
      const href = it.attribs['href'];
      if (id && href) items.set(id, { href, type: it.attribs['media-type'] ?? '' });
    }
    const base = posix.dirname(opfPath);
    const out: Element[] = [];
    for (const ref of spine ? childElements(spine, 'itemref') : []) {
      const item = items.get(ref.attribs['idref'] ?? '');
      if (!item || !/html|xml/.test(item.type)) continue;
      const path = posix.normalize(posix.join(base, decodeURIComponent(item.href)));
      const bytes = files.get(path);
      if (!bytes) continue;
      appendAll(out, htmlToElements(detectAndDecode(bytes), { shortText: 'title', languages: ctx.options.languages }));
    }
    return out;
  } catch (err) {
    return corrupt('epub', err);
  }
};
