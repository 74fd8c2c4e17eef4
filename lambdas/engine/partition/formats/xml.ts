// XML partitioner: the text of each leaf element, typed by the text heuristics (the library's
// partition_xml). With xmlKeepTags the document is one element holding the XML verbatim.
import { makeElement, type Element } from '../../elements';
import type { FormatPartitioner } from '../types';
import { classifyText, isBulletedText, stripBullet } from '../classify';
import { UnprocessableDocument } from '../../../errors';
import { decodeText, isTag, parseXml, textContent, type DomElement } from './common';

export const partitionXml: FormatPartitioner = async (data, ctx) => {
  const xml = decodeText(data, ctx.options.encoding);
  if (ctx.options.xmlKeepTags) {
    // the document verbatim, tags included, as one element (the library's xml_keep_tags)
    const raw = xml.replace(/^\uFEFF/, '').trim();
    return raw ? [makeElement('UncategorizedText', raw)] : [];
  }
  if (!/^\s*(<\?xml|<!--|<!DOCTYPE|<[A-Za-z_])/.test(xml.replace(/^\uFEFF/, ''))) {
    throw new UnprocessableDocument('xml: the document does not start with an XML declaration or element');
  }
  const doc = parseXml(xml);
  const out: Element[] = [];
  const visit = (el: DomElement): void => {
    const kids = el.children.filter(isTag);
    if (kids.length === 0) {
      const text = textContent(el).replace(/\s+/g, ' ').trim();
      if (!text) return;
      const type = classifyText(text, { languages: ctx.options.languages });
      out.push(makeElement(type, type === 'ListItem' && isBulletedText(text) ? stripBullet(text) : text));
      return;
    }
    for (const k of kids) visit(k);
  };
  for (const n of doc.children) if (isTag(n)) visit(n);
  return out;
};
