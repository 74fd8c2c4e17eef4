// metadata.data_source of a source document's elements: what the source connector said about the
// document (url, version, record_locator, created/modified dates) plus when it was processed, as
// the platform's connectors attach it to every element before chunking (chunks keep the first).
import type { Element } from '../engine/elements';

export function withDataSource(elements: Element[], dataSource: Record<string, unknown>, processedAt: Date): Element[] {
  const ds = { ...dataSource, date_processed: String(processedAt.getTime() / 1000) };
  return elements.map((e) => ({ ...e, metadata: { ...e.metadata, data_source: { ...ds, ...(e.metadata?.data_source ?? {}) } } }));
}
