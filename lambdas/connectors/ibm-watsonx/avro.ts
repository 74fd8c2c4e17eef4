// Iceberg's Avro files (table spec v2, "Manifests" and "Manifest Lists"): a snapshot's manifest list
// names its manifests, each manifest names data files. Written and read with avsc's object-container
// encoder/decoder; Avro longs are BigInt here, since snapshot ids of other engines use all 63 bits
// (a JS number would round them and a commit would then assert the wrong snapshot).
import { Readable } from 'node:stream';
import avro from 'avsc';

const bigLong = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (n: unknown) => BigInt(n as string),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

const opt = (type: unknown) => ['null', type];
const f = (name: string, id: number, type: unknown, optional = false) => ({ name, type: optional ? opt(type) : type, 'field-id': id, ...(optional ? { default: null } : {}) });

/** manifest_file of the v2 spec (the manifest list's records). */
export const MANIFEST_FILE_SCHEMA = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    f('manifest_path', 500, 'string'),
    f('manifest_length', 501, 'long'),
    f('partition_spec_id', 502, 'int'),
    f('content', 517, 'int'),
    f('sequence_number', 515, 'long'),
    f('min_sequence_number', 516, 'long'),
    f('added_snapshot_id', 503, 'long'),
    f('added_files_count', 504, 'int'),
    f('existing_files_count', 505, 'int'),
    f('deleted_files_count', 506, 'int'),
    f('added_rows_count', 512, 'long'),
    f('existing_rows_count', 513, 'long'),
    f('deleted_rows_count', 514, 'long'),
    f('partitions', 507, { type: 'array', items: { type: 'record', name: 'r508', fields: [f('contains_null', 509, 'boolean'), f('contains_nan', 518, 'boolean', true), f('lower_bound', 510, 'bytes', true), f('upper_bound', 511, 'bytes', true)] }, 'element-id': 508 }, true),
    f('key_metadata', 519, 'bytes', true),
  ],
};

const boundsMap = (id: number, keyId: number, valueId: number) => ({
  type: 'array',
  logicalType: 'map',
  items: { type: 'record', name: `k${keyId}_v${valueId}`, fields: [f('key', keyId, 'int'), f('value', valueId, 'bytes')] },
});

/** manifest_entry of the v2 spec for an unpartitioned table (the partition tuple is empty). */
export const MANIFEST_ENTRY_SCHEMA = {
  type: 'record',
  name: 'manifest_entry',
  fields: [
    f('status', 0, 'int'),
    f('snapshot_id', 1, 'long', true),
    f('sequence_number', 3, 'long', true),
    f('file_sequence_number', 4, 'long', true),
    f('data_file', 2, {
      type: 'record',
      name: 'r2',
      fields: [
        f('content', 134, 'int'),
        f('file_path', 100, 'string'),
        f('file_format', 101, 'string'),
        f('partition', 102, { type: 'record', name: 'r102', fields: [] }),
        f('record_count', 103, 'long'),
        f('file_size_in_bytes', 104, 'long'),
        f('lower_bounds', 125, boundsMap(125, 126, 127), true),
        f('upper_bounds', 128, boundsMap(128, 129, 130), true),
        f('key_metadata', 131, 'bytes', true),
        f('split_offsets', 132, { type: 'array', items: 'long', 'element-id': 133 }, true),
        f('equality_ids', 135, { type: 'array', items: 'int', 'element-id': 136 }, true),
        f('sort_order_id', 140, 'int', true),
      ],
    }),
  ],
};

export interface ManifestFile {
  manifest_path: string;
  manifest_length: bigint;
  partition_spec_id: number;
  content: number;
  sequence_number: bigint;
  min_sequence_number: bigint;
  added_snapshot_id: bigint;
  added_files_count: number;
  existing_files_count: number;
  deleted_files_count: number;
  added_rows_count: bigint;
  existing_rows_count: bigint;
  deleted_rows_count: bigint;
  partitions?: unknown[] | null;
  key_metadata?: Buffer | null;
}

export interface DataFile {
  content: number;
  file_path: string;
  file_format: string;
  partition: Record<string, unknown>;
  record_count: bigint;
  file_size_in_bytes: bigint;
  lower_bounds?: { key: number; value: Buffer }[] | null;
  upper_bounds?: { key: number; value: Buffer }[] | null;
  key_metadata?: Buffer | null;
  split_offsets?: bigint[] | null;
  equality_ids?: number[] | null;
  sort_order_id?: number | null;
}

/** 0 EXISTING, 1 ADDED, 2 DELETED. */
export interface ManifestEntry {
  status: 0 | 1 | 2;
  snapshot_id: bigint | null;
  sequence_number: bigint | null;
  file_sequence_number: bigint | null;
  data_file: DataFile;
}

const registry = () => ({ registry: { long: bigLong } }) as unknown as Parameters<typeof avro.Type.forSchema>[1];
export const manifestFileType = avro.Type.forSchema(MANIFEST_FILE_SCHEMA as avro.Schema, registry());
export const manifestEntryType = avro.Type.forSchema(MANIFEST_ENTRY_SCHEMA as avro.Schema, registry());

/** Records as one Avro object-container file (null codec), with the file metadata Iceberg expects. */
export async function encodeContainer(type: avro.Type, schema: object, records: unknown[], metadata: Record<string, string>): Promise<Buffer> {
  const meta = Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v, 'utf8')]));
  const encoder = new avro.streams.BlockEncoder(type, { codec: 'null', metadata: meta } as never);
  // avsc 5.7 drops field attributes when it prints a type's schema, and Iceberg readers project
  // manifests by `field-id`: the header gets the schema as written here (the encoder's own slot for
  // a schema given as JSON, read when the header is written).
  (encoder as unknown as { _schema: object })._schema = schema;
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    encoder.on('data', (c: Buffer) => chunks.push(c));
    encoder.on('end', () => resolve());
    encoder.on('error', reject);
  });
  for (const r of records) encoder.write(r);
  encoder.end();
  await done;
  return Buffer.concat(chunks);
}

/** An Avro container file's records, read with `type` as the reader schema (resolved against the writer's). */
export async function decodeContainer<T>(bytes: Uint8Array, type: avro.Type): Promise<{ records: T[]; metadata: Record<string, string> }> {
  const decoder = new avro.streams.BlockDecoder({
    readerSchema: type,
    parseHook: (schema: avro.Schema) => avro.Type.forSchema(schema, registry()),
  });
  const records: T[] = [];
  let metadata: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    decoder.on('metadata', (_type: avro.Type, _codec: string, header: { meta: Record<string, Buffer> }) => {
      metadata = Object.fromEntries(Object.entries(header.meta).map(([k, v]) => [k, v.toString('utf8')]));
    });
    decoder.on('data', (r: T) => records.push(r));
    decoder.on('end', () => resolve());
    decoder.on('error', reject);
    Readable.from([Buffer.from(bytes)]).pipe(decoder);
  });
  return { records, metadata };
}
