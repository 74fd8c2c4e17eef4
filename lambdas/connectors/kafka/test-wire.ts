// The Kafka binary protocol as the stand-in broker (test-server.ts) reads and writes it: big-endian
// primitives, zigzag varints, and record batches v2 (magic 2, uncompressed) with their CRC-32C.
// For tests and benchmarks only.

export class Reader {
  constructor(private b: Buffer, public pos = 0) {}
  int8 = () => this.b.readInt8((this.pos += 1) - 1);
  int16 = () => this.b.readInt16BE((this.pos += 2) - 2);
  int32 = () => this.b.readInt32BE((this.pos += 4) - 4);
  uint32 = () => this.b.readUInt32BE((this.pos += 4) - 4);
  int64 = () => Number(this.b.readBigInt64BE((this.pos += 8) - 8));
  bool = () => this.int8() !== 0;
  string(): string | null {
    const n = this.int16();
    if (n < 0) return null;
    return this.b.toString('utf8', this.pos, (this.pos += n));
  }
  bytes(): Buffer | null {
    const n = this.int32();
    if (n < 0) return null;
    return this.b.subarray(this.pos, (this.pos += n));
  }
  array<T>(item: () => T): T[] | null {
    const n = this.int32();
    if (n < 0) return null;
    return Array.from({ length: n }, item);
  }
  /** Zigzag varint (record fields). */
  varint(): number {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.b[this.pos++]!;
      v |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
      shift += 7n;
    }
    return Number((v >> 1n) ^ -(v & 1n));
  }
  raw(n: number): Buffer {
    return this.b.subarray(this.pos, (this.pos += n));
  }
  get left() {
    return this.b.length - this.pos;
  }
}

export class Writer {
  private parts: Buffer[] = [];
  private put(n: number, f: (b: Buffer) => void) {
    const b = Buffer.alloc(n);
    f(b);
    this.parts.push(b);
    return this;
  }
  int8 = (v: number) => this.put(1, (b) => b.writeInt8(v));
  int16 = (v: number) => this.put(2, (b) => b.writeInt16BE(v));
  int32 = (v: number) => this.put(4, (b) => b.writeInt32BE(v));
  int64 = (v: number) => this.put(8, (b) => b.writeBigInt64BE(BigInt(v)));
  bool = (v: boolean) => this.int8(v ? 1 : 0);
  string(s: string | null) {
    if (s === null) return this.int16(-1);
    const b = Buffer.from(s, 'utf8');
    this.int16(b.length);
    this.parts.push(b);
    return this;
  }
  bytes(b: Buffer | null) {
    if (b === null) return this.int32(-1);
    this.int32(b.length);
    this.parts.push(b);
    return this;
  }
  array<T>(items: readonly T[], each: (w: Writer, item: T) => void) {
    this.int32(items.length);
    for (const it of items) each(this, it);
    return this;
  }
  done = () => Buffer.concat(this.parts);
}

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface DecodedRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  timestamp: number;
}

/** Decodes a record set (one or more record batches, magic 2, uncompressed). Throws on a corrupt batch. */
export function decodeRecordSet(set: Buffer): { batches: { bytes: number; records: DecodedRecord[] }[] } {
  const r = new Reader(set);
  const batches: { bytes: number; records: DecodedRecord[] }[] = [];
  while (r.left >= 12) {
    r.int64(); // base offset (the broker assigns)
    const length = r.int32();
    const start = r.pos;
    r.int32(); // partition leader epoch
    const magic = r.int8();
    if (magic !== 2) throw new Error(`record batch magic ${magic} not supported`);
    const crc = r.uint32();
    const checked = set.subarray(r.pos, start + length);
    if (crc32c(checked) !== crc) throw new Error('record batch CRC mismatch');
    const attributes = r.int16();
    if (attributes & 0x7) throw new Error('compressed record batches are not supported by the stand-in');
    r.int32(); // last offset delta
    const firstTimestamp = r.int64();
    r.int64(); // max timestamp
    r.int64(); // producer id
    r.int16(); // producer epoch
    r.int32(); // base sequence
    const count = r.int32();
    const records: DecodedRecord[] = [];
    for (let i = 0; i < count; i++) {
      r.varint(); // record length
      r.int8(); // attributes
      const tsDelta = r.varint();
      r.varint(); // offset delta
      const kl = r.varint();
      const key = kl < 0 ? null : Buffer.from(r.raw(kl));
      const vl = r.varint();
      const value = vl < 0 ? null : Buffer.from(r.raw(vl));
      const headers: Record<string, string> = {};
      const hn = r.varint();
      for (let h = 0; h < hn; h++) {
        const name = r.raw(r.varint()).toString('utf8');
        const hl = r.varint();
        headers[name] = hl < 0 ? '' : r.raw(hl).toString('utf8');
      }
      records.push({ key, value, headers, timestamp: firstTimestamp + tsDelta });
    }
    r.pos = start + length;
    batches.push({ bytes: length + 12, records });
  }
  return { batches };
}


/** Zigzag varint (varlong) of a record field. */
export function varint(v: number): Buffer {
  let z = (BigInt(v) << 1n) ^ (BigInt(v) < 0n ? -1n : 0n);
  const out: number[] = [];
  do {
    let byte = Number(z & 0x7fn);
    z >>= 7n;
    if (z) byte |= 0x80;
    out.push(byte);
  } while (z);
  return Buffer.from(out);
}

const varBytes = (b: Buffer | null) => (b === null ? varint(-1) : Buffer.concat([varint(b.length), b]));

/**
 * One record batch v2 (magic 2, uncompressed, no producer id) holding `records` from `baseOffset`,
 * as a broker returns it in a Fetch response: the CRC-32C covers everything from the attributes on.
 */
export function encodeRecordBatch(baseOffset: number, records: readonly DecodedRecord[], opts: { control?: boolean } = {}): Buffer {
  const first = records[0]?.timestamp ?? 0;
  const max = records.reduce((m, r) => Math.max(m, r.timestamp), first);
  const body = records.map((rec, i) => {
    const headers = Object.entries(rec.headers);
    const inner = Buffer.concat([
      Buffer.from([0]), // attributes
      varint(rec.timestamp - first),
      varint(i),
      varBytes(rec.key),
      varBytes(rec.value),
      varint(headers.length),
      ...headers.flatMap(([k, v]) => [varBytes(Buffer.from(k, 'utf8')), varBytes(Buffer.from(v, 'utf8'))]),
    ]);
    return Buffer.concat([varint(inner.length), inner]);
  });
  const afterCrc = new Writer()
    .int16(opts.control ? 0x30 : 0) // attributes: no compression, create time; a control batch is transactional
    .int32(records.length - 1)
    .int64(first)
    .int64(max)
    .int64(opts.control ? 4242 : -1) // producer id
    .int16(-1) // producer epoch
    .int32(-1) // base sequence
    .int32(records.length)
    .done();
  const checked = Buffer.concat([afterCrc, ...body]);
  const head = new Writer().int32(0).int8(2).done(); // partition leader epoch, magic
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32c(checked));
  const batch = Buffer.concat([head, crc, checked]);
  return Buffer.concat([new Writer().int64(baseOffset).int32(batch.length).done(), batch]);
}
