// The built-in deterministic embedder: hashed character n-grams (3- and 4-grams of each word with
// boundary marks, plus the whole word) folded into a fixed-dimension vector with signed feature hashing,
// then L2-normalised. It needs no model, no network and no account, and gives the same vector for the
// same text on every machine. It captures lexical overlap only: it is NOT a semantic sentence embedding.

export const HASHED_MODEL_PREFIX = 'builtin-hashed-char-ngrams';
export const HASHED_DEFAULT_DIMENSIONS = 384;

const WORD = /[\p{L}\p{N}]+/gu;

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Embeds one text into `dimensions` floats (unit length, or all zeros for text without words). */
export function hashedEmbedding(text: string, dimensions = HASHED_DEFAULT_DIMENSIONS): number[] {
  const v = new Float64Array(dimensions);
  const lower = text.toLowerCase();
  WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD.exec(lower)) !== null) {
    const w = `<${m[0]}>`;
    const n = w.length;
    for (let i = 0; i < n; i++) {
      let h = 0x811c9dc5;
      for (let j = i; j < n && j < i + 4; j++) {
        h = Math.imul(h ^ w.charCodeAt(j), 0x01000193);
        if (j - i >= 2) add(v, fmix32(h), 1);
      }
    }
    // -- the whole word as one more feature (a different seed keeps it apart from its n-grams) --
    let hw = 0x9747b28c;
    for (let j = 0; j < n; j++) hw = Math.imul(hw ^ w.charCodeAt(j), 0x01000193);
    add(v, fmix32(hw), 2);
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += v[i]! * v[i]!;
  const out = new Array<number>(dimensions);
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dimensions; i++) out[i] = v[i]! * inv;
  return out;
}

function add(v: Float64Array, h: number, weight: number): void {
  const idx = h % v.length;
  v[idx] = v[idx]! + ((h & 0x80000000) !== 0 ? -weight : weight);
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
