// Deterministic ids for records. The platform's connectors key element records by
// uuid5(NAMESPACE_DNS, element_id + record_id) ("enhanced element id"), so the same element of the
// same document always lands on the same id, and distinct documents never collide.
import { createHash } from 'node:crypto';

/** RFC 4122 namespace for DNS names (the one the platform's connectors use). */
export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

/** RFC 4122 version-5 (SHA-1, name-based) UUID. */
export function uuid5(name: string, namespace = NAMESPACE_DNS): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The record id of one element of one document (platform: get_enhanced_element_id). */
export function enhancedElementId(elementId: string, recordId: string): string {
  return uuid5(`${elementId}${recordId}`);
}

/** The record id of a workflow source document: the source connector and the document's key. */
export function documentRecordId(sourceId: string, sourceKey: string): string {
  return uuid5(`${sourceId}:${sourceKey}`);
}
