// PackStream v1 and Bolt message framing for the Neo4j stand-in (test-server.ts): the encoding the
// official driver speaks (https://neo4j.com/docs/bolt/current/packstream/). Values decode to plain JS:
// integers to numbers (bigint beyond 2^53), floats to numbers, bytes to Buffers, structures to
// { signature, fields }. Messages are structures sent in chunks of at most 65,535 bytes, ended by an
// empty chunk. Not imported by any handler.

export interface PackStruct {
  signature: number;
  fields: unknown[];
}

export const isStruct = (v: unknown): v is PackStruct => typeof v === 'object' && v !== null && 'signature' in v && Array.isArray((v as PackStruct).fields);

export class Unpacker {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}

  unpack(): unknown {
    const m = this.buf[this.pos++]!;
    if (m <= 0x7f) return m;
    if (m >= 0xf0) return m - 0x100;
    const hi = m & 0xf0;
    if (hi === 0x80) return this.string(m & 0x0f);
    if (hi === 0x90) return this.list(m & 0x0f);
    if (hi === 0xa0) return this.map(m & 0x0f);
    if (hi === 0xb0) return this.struct(m & 0x0f);
    switch (m) {
      case 0xc0:
        return null;
      case 0xc1: {
        // The hot path (vectors): read in place, no slice per value.
        if (this.pos + 8 > this.buf.length) throw new Error('PackStream value truncated');
        const v = this.buf.readDoubleBE(this.pos);
        this.pos += 8;
        return v;
      }
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc8:
        return this.take(1).readInt8(0);
      case 0xc9:
        return this.take(2).readInt16BE(0);
      case 0xca:
        return this.take(4).readInt32BE(0);
      case 0xcb: {
        const v = this.take(8).readBigInt64BE(0);
        return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
      }
      case 0xcc:
        return Buffer.from(this.take(this.take(1).readUInt8(0)));
      case 0xcd:
        return Buffer.from(this.take(this.take(2).readUInt16BE(0)));
      case 0xce:
        return Buffer.from(this.take(this.take(4).readUInt32BE(0)));
      case 0xd0:
        return this.string(this.take(1).readUInt8(0));
      case 0xd1:
        return this.string(this.take(2).readUInt16BE(0));
      case 0xd2:
        return this.string(this.take(4).readUInt32BE(0));
      case 0xd4:
        return this.list(this.take(1).readUInt8(0));
      case 0xd5:
        return this.list(this.take(2).readUInt16BE(0));
      case 0xd6:
        return this.list(this.take(4).readUInt32BE(0));
      case 0xd8:
        return this.map(this.take(1).readUInt8(0));
      case 0xd9:
        return this.map(this.take(2).readUInt16BE(0));
      case 0xda:
        return this.map(this.take(4).readUInt32BE(0));
      default:
        throw new Error(`PackStream marker 0x${m.toString(16)} is not supported`);
    }
  }

  private take(n: number): Buffer {
    if (this.pos + n > this.buf.length) throw new Error('PackStream value truncated');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  private string(n: number): string {
    return this.take(n).toString('utf8');
  }
  private list(n: number): unknown[] {
    const out: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.unpack();
    return out;
  }
  private map(n: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const k = this.unpack();
      out[String(k)] = this.unpack();
    }
    return out;
  }
  private struct(n: number): PackStruct {
    const signature = this.take(1).readUInt8(0);
    const fields: unknown[] = [];
    for (let i = 0; i < n; i++) fields.push(this.unpack());
    return { signature, fields };
  }
}

function sized(out: Buffer[], n: number, tiny: number, m8: number, m16: number, m32: number): void {
  if (tiny >= 0 && n < 16) out.push(Buffer.from([tiny + n]));
  else if (n < 0x100) out.push(Buffer.from([m8, n]));
  else if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = m16;
    b.writeUInt16BE(n, 1);
    out.push(b);
  } else {
    const b = Buffer.alloc(5);
    b[0] = m32;
    b.writeUInt32BE(n, 1);
    out.push(b);
  }
}

function packInto(out: Buffer[], v: unknown): void {
  if (v === null || v === undefined) out.push(Buffer.from([0xc0]));
  else if (v === true) out.push(Buffer.from([0xc3]));
  else if (v === false) out.push(Buffer.from([0xc2]));
  else if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
    const n = BigInt(v);
    if (n >= -16n && n <= 127n) out.push(Buffer.from([Number(n) & 0xff]));
    else if (n >= -(2n ** 31n) && n < 2n ** 31n) {
      const b = Buffer.alloc(5);
      b[0] = 0xca;
      b.writeInt32BE(Number(n), 1);
      out.push(b);
    } else {
      const b = Buffer.alloc(9);
      b[0] = 0xcb;
      b.writeBigInt64BE(n, 1);
      out.push(b);
    }
  } else if (typeof v === 'number') {
    const b = Buffer.alloc(9);
    b[0] = 0xc1;
    b.writeDoubleBE(v, 1);
    out.push(b);
  } else if (typeof v === 'string') {
    const s = Buffer.from(v, 'utf8');
    sized(out, s.length, 0x80, 0xd0, 0xd1, 0xd2);
    out.push(s);
  } else if (Buffer.isBuffer(v)) {
    sized(out, v.length, -1, 0xcc, 0xcd, 0xce);
    out.push(v);
  } else if (Array.isArray(v)) {
    sized(out, v.length, 0x90, 0xd4, 0xd5, 0xd6);
    for (const x of v) packInto(out, x);
  } else if (isStruct(v)) {
    out.push(Buffer.from([0xb0 + v.fields.length, v.signature]));
    for (const x of v.fields) packInto(out, x);
  } else if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    sized(out, entries.length, 0xa0, 0xd8, 0xd9, 0xda);
    for (const [k, x] of entries) {
      packInto(out, k);
      packInto(out, x);
    }
  } else throw new Error(`cannot pack ${typeof v}`);
}

export function pack(v: unknown): Buffer {
  const out: Buffer[] = [];
  packInto(out, v);
  return Buffer.concat(out);
}

/** One Bolt message (a structure) as chunks ending with the 00 00 marker. */
export function frame(signature: number, fields: unknown[]): Buffer {
  const body = pack({ signature, fields });
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += 0xffff) {
    const piece = body.subarray(i, Math.min(body.length, i + 0xffff));
    const head = Buffer.alloc(2);
    head.writeUInt16BE(piece.length);
    parts.push(head, piece);
  }
  parts.push(Buffer.from([0, 0]));
  return Buffer.concat(parts);
}

/** Reassembles chunked messages from a byte stream; `push` returns the complete messages so far. */
export class Dechunker {
  private pending: Buffer = Buffer.alloc(0);
  private parts: Buffer[] = [];

  push(data: Buffer): PackStruct[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    const messages: PackStruct[] = [];
    for (;;) {
      if (this.pending.length < 2) break;
      const size = this.pending.readUInt16BE(0);
      if (this.pending.length < 2 + size) break;
      const piece = this.pending.subarray(2, 2 + size);
      this.pending = this.pending.subarray(2 + size);
      if (size > 0) this.parts.push(piece);
      else if (this.parts.length) {
        const msg = new Unpacker(Buffer.concat(this.parts)).unpack();
        this.parts = [];
        if (!isStruct(msg)) throw new Error('a Bolt message must be a structure');
        messages.push(msg);
      }
    }
    return messages;
  }
}
