// Writes a document's elements into Neo4j as the platform's Neo4j connector does (Neo4jUploadStager
// builds a lexical graph, Neo4jUploader merges it):
// - a `Document` node (id = the record_id; name, source_key, dates of the source document);
// - one node per element: `Chunk` for chunks (an element with metadata.orig_elements, as the
//   platform decides, or a chunker's CompositeElement/TableChunk), `UnstructuredElement` otherwise;
//   properties: element_id, type, text, record_id and the metadata flattened to `metadata_*`
//   (Neo4j properties hold no maps: nested keys joined with `_`, lists of objects as JSON text); the
//   embedding set with db.create.setNodeVectorProperty as `embedding` (the property the vector
//   index covers; the platform's stager names it `embeddings`, so its index stays empty);
// - node ids are enhanced element ids (uuid5 of element_id + record_id), so two documents never share
//   a node; the chunks' original elements become `UnstructuredElement` nodes (-[:PART_OF_CHUNK]->);
// - relationships as the platform: (element)-[:PART_OF_DOCUMENT]->(document), (element)-[:NEXT_CHUNK
//   or NEXT_ELEMENT]->(previous element), entities of metadata.entities as `Entity` nodes
//   (-[:HAS_ENTITY]->, -[:ENTITY_TYPE]->, and their relationships);
// - schema first (not allowed in a data transaction): uniqueness constraints on id per label, and
//   the `chunk_vector` index (cosine, the embeddings' dimension) when absent; an existing index of
//   another dimension fails the file with a message saying so;
// - replace: one write transaction deletes the document's earlier graph by record_id (the Document
//   and its Chunk/UnstructuredElement nodes, DETACH DELETE), then merges nodes and relationships with
//   UNWIND in batches of batch_size (and ≤ 16 MiB of parameters); a failure rolls the whole file back,
//   and transient errors (Neo.TransientError.*, unavailable) retry the whole file.
import { inflateSync } from 'node:zlib';
import { batches } from '../records/batch';
import { enhancedElementId } from '../records/ids';
import { withRetry } from '../records/retry';
import { flattenDict, RECORD_ID_FIELD } from '../records/stage';
import type { ElementRecord, FileRecords, UploadContext, UploadResult } from '../records/types';
import { isRetryable, toStoreError, withNeo4j, type Neo4jTarget } from './client';

export const DEFAULT_BATCH_SIZE = 100;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
export const LABELS = ['UnstructuredElement', 'Chunk', 'Document', 'Entity'] as const;
export type Label = (typeof LABELS)[number];
export const VECTOR_INDEX = 'chunk_vector';
const CHUNK_TYPES = new Set(['CompositeElement', 'TableChunk']);
/** Heavy metadata the platform strips from original elements (format_and_truncate_orig_elements). */
const ORIG_DROPPED = ['image_base64', 'text_as_html', 'table_as_cells', 'link_urls', 'link_texts', 'link_start_indexes', 'emphasized_text_contents'];

export interface GraphNode {
  label: Label;
  id: string;
  properties: Record<string, unknown>;
  vector?: number[];
}
export interface GraphEdge {
  rel: string;
  from: GraphNode;
  to: GraphNode;
}

const isChunk = (e: ElementRecord) => 'orig_elements' in (e.metadata ?? {}) || CHUNK_TYPES.has(e.type);

/** Metadata as Neo4j properties: one level of metadata_* keys, primitives and lists of one primitive type. */
export function metadataProperties(metadata: Record<string, unknown>): Record<string, unknown> {
  const { orig_elements: _o, entities: _e, ...rest } = metadata ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flattenDict(rest, { separator: '_', removeNone: true }, 'metadata'))) {
    if (Array.isArray(v)) {
      const kinds = new Set(v.map((x) => typeof x));
      out[k] = v.length && kinds.size === 1 && ['string', 'number', 'boolean'].includes([...kinds][0]!) ? v : JSON.stringify(v);
    } else out[k] = v;
  }
  return out;
}

function origElements(e: ElementRecord): ElementRecord[] {
  const raw = e.metadata?.orig_elements;
  if (typeof raw !== 'string' || !raw) return [];
  try {
    const list = JSON.parse(inflateSync(Buffer.from(raw, 'base64')).toString('utf8')) as ElementRecord[];
    return list.map((o) => ({ ...o, metadata: Object.fromEntries(Object.entries(o.metadata ?? {}).filter(([k]) => !ORIG_DROPPED.includes(k))) }));
  } catch {
    return [];
  }
}

/** The document's lexical graph (platform: Neo4jUploadStager._create_lexical_graph). */
export function lexicalGraph(file: FileRecords): { nodes: GraphNode[]; edges: GraphEdge[]; dimensions?: number } {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const add = (n: GraphNode) => {
    const key = `${n.label}\u0000${n.id}`;
    const had = nodes.get(key);
    if (had) return had;
    nodes.set(key, n);
    return n;
  };
  const link = (from: GraphNode, rel: string, to: GraphNode) => void edges.set(`${from.label}/${from.id}|${rel}|${to.label}/${to.id}`, { from, rel, to });
  const source = file.elements[0]?.metadata?.data_source as Record<string, unknown> | undefined;
  const doc = add({
    label: 'Document',
    id: file.recordId,
    properties: {
      name: file.sourceKey.split('/').pop(),
      source_key: file.sourceKey,
      [RECORD_ID_FIELD]: file.recordId,
      ...(typeof source?.date_created === 'string' ? { date_created: source.date_created } : {}),
      ...(typeof source?.date_modified === 'string' ? { date_modified: source.date_modified } : {}),
    },
  });
  const elementNode = (e: ElementRecord, label: Label): GraphNode => {
    const properties: Record<string, unknown> = { element_id: e.element_id, type: e.type, [RECORD_ID_FIELD]: file.recordId, ...metadataProperties(e.metadata) };
    if (e.text) properties.text = e.text;
    const vector = Array.isArray(e.embeddings) && e.embeddings.length ? e.embeddings : undefined;
    return add({ label, id: enhancedElementId(e.element_id, file.recordId), properties, vector });
  };
  const entityNode = (name: unknown) => add({ label: 'Entity', id: String(name), properties: {} });
  const addEntities = (e: ElementRecord, node: GraphNode) => {
    const raw = e.metadata?.entities as unknown;
    const items = (Array.isArray(raw) ? raw : (raw as { items?: unknown[] })?.items) ?? [];
    for (const it of items as { entity?: unknown; type?: unknown }[]) {
      if (typeof it?.entity !== 'string' || typeof it.type !== 'string') continue;
      const ent = entityNode(it.entity);
      link(ent, 'ENTITY_TYPE', entityNode(it.type));
      link(node, 'HAS_ENTITY', ent);
    }
    const rels = Array.isArray(raw) ? [] : ((raw as { relationships?: unknown[] })?.relationships ?? []);
    for (const r of rels as { from?: unknown; from_?: unknown; relationship?: unknown; to?: unknown }[]) {
      const from = r?.from ?? r?.from_;
      if (typeof from === 'string' && typeof r.to === 'string' && typeof r.relationship === 'string' && r.relationship) link(entityNode(from), r.relationship, entityNode(r.to));
    }
  };

  let previous: GraphNode | undefined;
  let dimensions: number | undefined;
  for (const e of file.elements) {
    const chunk = isChunk(e);
    const node = elementNode(e, chunk ? 'Chunk' : 'UnstructuredElement');
    if (chunk && node.vector && dimensions === undefined) dimensions = node.vector.length;
    if (previous) link(node, chunk ? 'NEXT_CHUNK' : 'NEXT_ELEMENT', previous);
    previous = node;
    link(node, 'PART_OF_DOCUMENT', doc);
    addEntities(e, node);
    if (chunk) {
      for (const o of origElements(e)) {
        const orig = elementNode(o, 'UnstructuredElement');
        link(orig, 'PART_OF_CHUNK', node);
        link(orig, 'PART_OF_DOCUMENT', doc);
        addEntities(o, orig);
      }
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], dimensions };
}

const tick = (name: string) => `\`${name.replace(/`/g, '``')}\``;

export const DELETE_DOCUMENT = `MATCH (d:\`Document\` {id: $record_id})
OPTIONAL MATCH (d)--(m:\`Chunk\`|\`UnstructuredElement\`)
WITH d, collect(DISTINCT m) AS parts
FOREACH (p IN parts | DETACH DELETE p)
DETACH DELETE d
RETURN size(parts) AS deleted`;

export const nodesQuery = (label: Label) => `UNWIND $nodes AS node
MERGE (n:${tick(label)} {id: node.id})
SET n += node.properties
WITH n, node WHERE node.vector IS NOT NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', node.vector)`;

export const edgesQuery = (rel: string, from: Label, to: Label) => `UNWIND $edges AS edge
MATCH (u:${tick(from)} {id: edge.source})
MATCH (v:${tick(to)} {id: edge.destination})
MERGE (u)-[:${tick(rel)}]->(v)`;

export const SHOW_INDEX = 'SHOW INDEXES YIELD name, type, options WHERE name = $name RETURN type, options';

/** The vector index's dimension, or undefined when there is none. */
export async function vectorIndexDimensions(run: (q: string, p: Record<string, unknown>) => Promise<{ records: { get(k: string): unknown }[] }>): Promise<number | undefined> {
  const r = await run(SHOW_INDEX, { name: VECTOR_INDEX });
  const options = r.records[0]?.get('options') as { indexConfig?: Record<string, unknown> } | undefined;
  if (!r.records.length) return undefined;
  return Number(options?.indexConfig?.['vector.dimensions']);
}

const batchSizeOf = (c: Neo4jTarget) => (Number.isInteger(c.batch_size) && c.batch_size! >= 1 ? c.batch_size! : DEFAULT_BATCH_SIZE);
const estimatedBytes = (n: unknown) => {
  const { vector, ...rest } = n as { vector?: unknown[] };
  return JSON.stringify(rest).length + (vector?.length ?? 0) * 9;
};

/** Parameters of a node: integers as Neo4j integers (the driver would send a JS number as a float). */
async function nodeParam(n: GraphNode) {
  const { int } = await import('neo4j-driver');
  const properties = Object.fromEntries(
    Object.entries(n.properties).map(([k, v]) => [k, typeof v === 'number' && Number.isSafeInteger(v) ? int(v) : Array.isArray(v) && v.every((x) => Number.isSafeInteger(x)) ? v.map((x) => int(x)) : v]),
  );
  return { id: n.id, properties, vector: n.vector ?? null };
}

export async function writeDocument(c: Neo4jTarget, file: FileRecords, ctx: UploadContext): Promise<UploadResult> {
  const graph = lexicalGraph(file);
  const size = batchSizeOf(c);
  return withRetry(
    () =>
      withNeo4j(c, { signal: ctx.signal }, async (driver) => {
        const run = (q: string, p: Record<string, unknown> = {}) => driver.executeQuery(q, p, { database: c.database });
        try {
          for (const label of LABELS) await run(`CREATE CONSTRAINT ${label.toLowerCase()}_id IF NOT EXISTS FOR (n:${tick(label)}) REQUIRE n.id IS UNIQUE`);
          if (graph.dimensions) {
            await run(
              `CREATE VECTOR INDEX ${VECTOR_INDEX} IF NOT EXISTS FOR (n:\`Chunk\`) ON n.embedding OPTIONS {indexConfig: {\`vector.similarity_function\`: 'cosine', \`vector.dimensions\`: ${graph.dimensions}}}`,
            ).catch((err: { code?: string }) => {
              if (err?.code !== 'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists') throw err;
            });
            const dims = await vectorIndexDimensions(run);
            if (dims !== undefined && dims !== graph.dimensions) {
              throw new Error(`the vector index ${VECTOR_INDEX} of database ${c.database} has ${dims} dimensions but the embeddings have ${graph.dimensions}: drop the index or write to another database`);
            }
          }
        } catch (err) {
          throw await toStoreError(err, c, `cannot prepare database ${c.database}: `);
        }
        const session = driver.session({ database: c.database, defaultAccessMode: 'WRITE' });
        try {
          // An explicit transaction (not executeWrite): the driver would retry on its own, unlogged.
          const tx = await session.beginTransaction();
          try {
            const del = await tx.run(DELETE_DOCUMENT, { [RECORD_ID_FIELD]: file.recordId });
            const deleted = Number(del.records[0]?.get('deleted') ?? 0);
            for (const label of LABELS) {
              const mine = graph.nodes.filter((n) => n.label === label);
              for (const batch of batches(mine, { maxCount: size, maxBytes: MAX_BATCH_BYTES, sizeOf: estimatedBytes })) {
                await tx.run(nodesQuery(label), { nodes: await Promise.all(batch.map(nodeParam)) });
              }
            }
            const groups = new Map<string, GraphEdge[]>();
            for (const e of graph.edges) {
              const key = JSON.stringify([e.rel, e.from.label, e.to.label]);
              const list = groups.get(key);
              if (list) list.push(e);
              else groups.set(key, [e]);
            }
            for (const [key, list] of groups) {
              const [rel, from, to] = JSON.parse(key) as [string, Label, Label];
              for (const batch of batches(list, { maxCount: size })) {
                await tx.run(edgesQuery(rel, from, to), { edges: batch.map((e) => ({ source: e.from.id, destination: e.to.id })) });
              }
            }
            await tx.commit();
            return { written: file.elements.length, deleted };
          } catch (err) {
            await tx.rollback().catch(() => undefined);
            throw err;
          }
        } catch (err) {
          throw await toStoreError(err, c, `write to database ${c.database} failed: `);
        } finally {
          await session.close().catch(() => undefined);
        }
      }).catch(async (err) => {
        throw await toStoreError(err, c);
      }),
    {
      attempts: 5,
      signal: ctx.signal,
      retryable: isRetryable,
      onRetry: (err, attempt, delayMs) => ctx.log?.('neo4j write retried', { attempt, delayMs, error: (err as Error).message }),
    },
  );
}

export async function removeDocument(c: Neo4jTarget, recordId: string, ctx: UploadContext): Promise<number> {
  return withRetry(
    () =>
      withNeo4j(c, { signal: ctx.signal }, async (driver) => {
        const r = await driver.executeQuery(DELETE_DOCUMENT, { [RECORD_ID_FIELD]: recordId }, { database: c.database });
        return Number(r.records[0]?.get('deleted') ?? 0);
      }).catch(async (err) => {
        throw await toStoreError(err, c);
      }),
    { attempts: 5, signal: ctx.signal, retryable: isRetryable },
  );
}
