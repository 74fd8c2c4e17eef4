// Bounded reading of zip containers (docx, xlsx, pptx, odt, epub). The central directory is read
// first and the members the caller wants are checked against the caps by their declared sizes
// before anything is inflated; each member is then inflated by zlib with maxOutputLength set to
// what it may still produce (its declared size, the per-member cap, the document's remaining
// budget), so a member that lies about its size stops there instead of expanding (zlib stops
// writing at the limit: no buffer of the real size is ever allocated, no time is spent on the rest).
// fflate's unzipSync, used before, allocates the declared size and then inflates the whole member
// whatever it declared, dropping the excess: a 1.9 MB docx declaring small sizes spent 10 s there.
import { inflateRawSync } from 'node:zlib';
import { UnprocessableDocument } from '../../../errors';
import { capExceeded, MAX_INFLATED_BYTES, MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES } from '../limits';

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
}

export const ZIP_LIMITS: ZipLimits = { maxEntries: MAX_ZIP_ENTRIES, maxEntryBytes: MAX_ZIP_ENTRY_BYTES, maxTotalBytes: MAX_INFLATED_BYTES };

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const SIG = { eocd: 0x06054b50, eocd64Locator: 0x07064b50, eocd64: 0x06064b50, central: 0x02014b50, local: 0x04034b50 };

/** Reads the central directory (zip64 included) without inflating anything. */
export function zipEntries(data: Uint8Array, kind: string, maxEntries = MAX_ZIP_ENTRIES): ZipEntry[] {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const corrupt = (why: string) => new UnprocessableDocument(`${kind}: corrupt or truncated ZIP container (${why})`);
  const u64 = (o: number) => {
    const n = Number(v.getBigUint64(o, true));
    if (!Number.isSafeInteger(n)) throw corrupt('a size or offset is out of range');
    return n;
  };
  let e = data.length - 22;
  const stop = Math.max(0, data.length - 22 - 0xffff);
  while (e >= stop && v.getUint32(e, true) !== SIG.eocd) e--;
  if (e < stop) throw corrupt('no end of central directory record');
  let count = v.getUint16(e + 10, true);
  let offset = v.getUint32(e + 16, true);
  if (e >= 20 && v.getUint32(e - 20, true) === SIG.eocd64Locator) {
    const at = u64(e - 12);
    if (at + 56 > data.length || v.getUint32(at, true) !== SIG.eocd64) throw corrupt('bad zip64 end record');
    count = u64(at + 32);
    offset = u64(at + 48);
  }
  if (count > maxEntries) throw capExceeded(`${kind}: the archive's entry count (${count})`, maxEntries, 'entries');
  const out: ZipEntry[] = [];
  let o = offset;
  for (let i = 0; i < count; i++) {
    if (o + 46 > data.length || v.getUint32(o, true) !== SIG.central) throw corrupt('bad central directory entry');
    const flags = v.getUint16(o + 8, true);
    const method = v.getUint16(o + 10, true);
    let compressedSize = v.getUint32(o + 20, true);
    let size = v.getUint32(o + 24, true);
    const nameLen = v.getUint16(o + 28, true);
    const extraLen = v.getUint16(o + 30, true);
    const commentLen = v.getUint16(o + 32, true);
    let localOffset = v.getUint32(o + 42, true);
    const end = o + 46 + nameLen + extraLen + commentLen;
    if (end > data.length) throw corrupt('central directory runs past the end');
    const nameBytes = data.subarray(o + 46, o + 46 + nameLen);
    const name = Buffer.from(nameBytes.buffer, nameBytes.byteOffset, nameBytes.byteLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    // zip64 extended information: the 64-bit values of the fields saturated at 0xFFFFFFFF, in order
    for (let x = o + 46 + nameLen; x + 4 <= o + 46 + nameLen + extraLen; ) {
      const id = v.getUint16(x, true);
      const len = v.getUint16(x + 2, true);
      if (id === 0x0001) {
        let p = x + 4;
        const take = () => { if (p + 8 > x + 4 + len) throw corrupt('short zip64 field'); const n = u64(p); p += 8; return n; };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localOffset === 0xffffffff) localOffset = take();
      }
      x += 4 + len;
    }
    out.push({ name, method, flags, compressedSize, size, localOffset });
    o = end;
  }
  return out;
}

/**
 * The members of a zip archive that `want` selects, inflated within `limits` (a 413 beyond them; a
 * 422 for a corrupt, encrypted or size-lying archive).
 */
export function readZip(
  data: Uint8Array,
  kind: string,
  want: (name: string) => boolean = () => true,
  limits: ZipLimits = ZIP_LIMITS,
): Map<string, Uint8Array> {
  const ole = data.length >= 8 && [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => data[i] === b);
  if (ole) {
    // password-protected Office files are OLE containers holding an EncryptedPackage
    throw new UnprocessableDocument(`${kind}: the file is encrypted (password-protected) or a legacy binary Office file`);
  }
  if (data.length < 22 || data[0] !== 0x50 || data[1] !== 0x4b) {
    throw new UnprocessableDocument(`${kind}: not a valid ZIP container`);
  }
  const entries = zipEntries(data, kind, limits.maxEntries).filter((e) => !e.name.endsWith('/') && want(e.name));
  // -- declared sizes first: a bomb that declares itself is refused before any inflating --
  let declared = 0;
  for (const e of entries) {
    if (e.size > limits.maxEntryBytes) throw capExceeded(`${kind}: member ${e.name} (${e.size} bytes uncompressed)`, limits.maxEntryBytes, 'bytes');
    declared += e.size;
    if (declared > limits.maxTotalBytes) throw capExceeded(`${kind}: the archive's uncompressed size`, limits.maxTotalBytes, 'bytes');
  }
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const e of entries) {
    if (e.flags & 1) throw new UnprocessableDocument(`${kind}: member ${e.name} is encrypted`);
    const lo = e.localOffset;
    if (lo + 30 > data.length || v.getUint32(lo, true) !== SIG.local) throw new UnprocessableDocument(`${kind}: corrupt or truncated ZIP container (bad local header of ${e.name})`);
    const start = lo + 30 + v.getUint16(lo + 26, true) + v.getUint16(lo + 28, true);
    if (start + e.compressedSize > data.length) throw new UnprocessableDocument(`${kind}: corrupt or truncated ZIP container (${e.name} runs past the end)`);
    const raw = data.subarray(start, start + e.compressedSize);
    // the most this member may produce: its own claim, the member cap, what the document has left
    const allowed = Math.min(e.size, limits.maxEntryBytes, limits.maxTotalBytes - total);
    let out: Uint8Array;
    if (e.method === 0) {
      out = raw;
    } else if (e.method === 8) {
      try {
        out = inflateRawSync(raw, { maxOutputLength: Math.max(1, allowed) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new UnprocessableDocument(`${kind}: member ${e.name} inflates beyond its declared size of ${e.size} bytes (refused)`);
        }
        throw new UnprocessableDocument(`${kind}: corrupt or truncated ZIP container (${e.name}: ${(err as Error).message})`);
      }
    } else {
      throw new UnprocessableDocument(`${kind}: member ${e.name} uses unsupported compression method ${e.method}`);
    }
    if (out.length > allowed) throw new UnprocessableDocument(`${kind}: member ${e.name} is larger than its declared size of ${e.size} bytes (refused)`);
    total += out.length;
    files.set(e.name, out);
  }
  return files;
}
