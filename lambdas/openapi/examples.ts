// An example for every operation: a value built from the documented schema (first enum value,
// default, format-shaped strings, required properties only), replaced by a hand-written one where a
// built value would say little (connector configs, workflow bodies) or break a pattern. The contract
// test validates every example against its schema, so a schema change cannot leave one stale.
import { COMPONENTS, type JsonSchema } from './components';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const WF = '0b9f2a4e-9d2c-4c8e-8a53-6a0c1e2f3b4d';
const AT = '2026-01-15T10:30:00Z';

const FORMATS: Record<string, unknown> = { uuid: ID, 'date-time': AT, email: 'ops@example.com', uri: 'https://example.com/hooks/wps', binary: 'doc.pdf' };

export function sample(schema: JsonSchema, schemas: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > 12) return null;
  const s = schema as Record<string, any>;
  if (typeof s.$ref === 'string') return sample(schemas[s.$ref.slice(COMPONENTS.length)] ?? {}, schemas, depth + 1);
  if ('const' in s) return s.const;
  if (s.examples?.length) return s.examples[0];
  if ('default' in s) return s.default;
  if (s.enum?.length) return s.enum[0];
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) if (s[k]?.length) return sample(s[k][0], schemas, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      if (s.pattern === '^ep_') return 'ep_01JDRX6Q8V3C2N4M5P7R9T1W3Y';
      return FORMATS[s.format] ?? (s.minLength > 6 ? 'x'.repeat(s.minLength) : 'string');
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [sample(s.items, schemas, depth + 1)].slice(0, Math.max(1, s.minItems ?? 1)) : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) {
        if ((s.required ?? []).includes(k) || depth === 0) out[k] = sample(v, schemas, depth + 1);
      }
      return out;
    }
    default:
      return s.type === 'null' ? null : {};
  }
}

/** Hand-written request examples by operationId (what a reader would send). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  create_source: { name: 'incoming-pdfs', type: 'local', config: { remote_url: 'file:///srv/wps/inbox', recursive: true } },
  create_destination: { name: 'processed-json', type: 'local', config: { remote_url: 'file:///srv/wps/outbox' } },
  update_source: { config: { remote_url: 'file:///srv/wps/inbox', recursive: false } },
  update_destination: { config: { remote_url: 'file:///srv/wps/outbox' } },
  create_workflow: { name: 'pdf-to-json', workflow_type: 'basic', source_id: ID, destination_id: WF },
  update_workflow: { name: 'pdf-to-json (nightly)' },
  verify_channel: { code: '123456' },
  verify_workflow_channel: { code: '123456' },
  mark_notifications_read: { notification_ids: [ID] },
};
