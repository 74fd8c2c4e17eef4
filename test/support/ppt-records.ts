// A small [MS-PPT] writer for the legacy PowerPoint tests: records, text atoms with paragraph styles,
// shapes with client anchors, drawings, slide/notes containers, persist directories and user edits, in
// a compound file written with `cfb`.
import CFB from 'cfb';


export const rec = (type: number, body: Buffer, instance = 0, container = false): Buffer => {
  const h = Buffer.alloc(8);
  h.writeUInt16LE((instance << 4) | (container ? 0xf : 0), 0);
  h.writeUInt16LE(type, 2);
  h.writeUInt32LE(body.length, 4);
  return Buffer.concat([h, body]);
};
export const box = (type: number, kids: Buffer[], instance = 0): Buffer => rec(type, Buffer.concat(kids), instance, true);
export const u32s = (...v: number[]): Buffer => {
  const b = Buffer.alloc(4 * v.length);
  v.forEach((x, i) => b.writeUInt32LE(x >>> 0, 4 * i));
  return b;
};

/** TextHeaderAtom + TextCharsAtom + StyleTextPropAtom (one paragraph run per paragraph). */
export function text(type: number, paras: { t: string; level?: number; bullet?: boolean }[], bytes = false): Buffer {
  const raw = paras.map((p) => p.t).join('\r');
  const chars = bytes ? rec(0x0fa8, Buffer.from(raw, 'latin1')) : rec(0x0fa0, Buffer.from(raw, 'utf16le'));
  const runs = paras.map((p, i) => {
    const head = Buffer.alloc(10);
    head.writeUInt32LE(p.t.length + 1 + (i === paras.length - 1 ? 0 : 0), 0);
    head.writeUInt16LE(p.level ?? 0, 4);
    // masks: hasBullet (bit 0) and alignment (bit 11), so the reader must skip a field to find the next run
    head.writeUInt32LE(p.bullet === undefined ? 0x800 : 0x801, 6);
    const flags = p.bullet === undefined ? Buffer.alloc(0) : Buffer.from([p.bullet ? 1 : 0, 0]);
    return Buffer.concat([head, flags, Buffer.from([1, 0])]);
  });
  const charRuns = Buffer.concat([u32s(raw.length + 1), Buffer.alloc(4)]); // one character run, no props
  return Buffer.concat([rec(0x0f9f, u32s(type)), chars, rec(0x0fa1, Buffer.concat([...runs, charRuns]))]);
}

export function shape(top: number, left: number, textbox: Buffer): Buffer {
  const anchor = Buffer.alloc(8);
  anchor.writeInt16LE(top, 0);
  anchor.writeInt16LE(left, 2);
  anchor.writeInt16LE(left + 100, 4);
  anchor.writeInt16LE(top + 50, 6);
  return box(0xf004, [rec(0xf00a, Buffer.alloc(8)), rec(0xf010, anchor), box(0xf00d, [textbox])]);
}
export const outlineRef = (i: number): Buffer => rec(0x0f9e, u32s(i));
export const drawing = (shapes: Buffer[]): Buffer => box(0x040c, [box(0xf002, [box(0xf003, shapes)])]);
export const slideAtom = (notesId: number): Buffer => rec(0x03ef, Buffer.concat([Buffer.alloc(12), u32s(0x80000000, notesId), Buffer.alloc(4)]));
export const persistAtom = (ref: number, id: number): Buffer => rec(0x03f3, u32s(ref, 0, 0, id, 0));

export interface Built { stream: Buffer; offsets: Map<number, number> }

/** Appends records to the stream, remembering the offset of those given a persist id. */
export function append(into: Built, objects: [number | undefined, Buffer][]): void {
  for (const [id, r] of objects) {
    if (id !== undefined) into.offsets.set(id, into.stream.length);
    into.stream = Buffer.concat([into.stream, r]);
  }
}

/** A persist directory for `ids` and the UserEditAtom after it (lastEdit -1: pointing at itself); returns the edit's offset. */
export function commit(into: Built, ids: number[], docRef: number, lastEdit: number, encrypted = false): number {
  const entries = Buffer.concat(ids.map((id) => Buffer.concat([u32s((1 << 20) | id), u32s(into.offsets.get(id)!)])));
  const dirAt = into.stream.length;
  append(into, [[undefined, rec(0x1772, entries)]]);
  const editAt = into.stream.length;
  const fields = Buffer.concat([u32s(0), Buffer.from([0, 0, 0, 3]), u32s(lastEdit < 0 ? editAt : lastEdit, dirAt, docRef, 10), Buffer.alloc(4), encrypted ? u32s(9) : Buffer.alloc(0)]);
  append(into, [[undefined, rec(0x0ff5, fields)]]);
  return editAt;
}

export function compoundFile(doc: Buffer, editAt: number): Uint8Array {
  const cu = Buffer.concat([rec(0x0ff6, Buffer.concat([u32s(0x14, 0xe391c05f, editAt), Buffer.alloc(8)]))]);
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'PowerPoint Document', doc);
  CFB.utils.cfb_add(cfb, 'Current User', cu);
  return new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer);
}

export const TITLE = 0;
export const BODY = 1;
export const NOTES = 2;
export const OTHER = 4;
