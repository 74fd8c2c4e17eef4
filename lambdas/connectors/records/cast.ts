// Casting a staged value to a typed column (Delta and Iceberg tables), as pyarrow's cast does it for
// the platform's writers: numbers from numbers or numeric strings, 32-bit integers range-checked,
// 64-bit ones as bigint, booleans from booleans or "true"/"false", nested values as JSON text in a
// string column. A value that does not fit throws ValueRefused; the caller names the column.

/** The storage kinds the table writers know: their own type names map onto these. */
export type ScalarKind = 'string' | 'int32' | 'int64' | 'float' | 'boolean';

export class ValueRefused extends Error {}

export function castScalar(kind: ScalarKind, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'int32':
    case 'int64': {
      if (typeof v === 'bigint') {
        if (kind === 'int32' && (v > 2n ** 31n - 1n || v < -(2n ** 31n))) throw new ValueRefused();
        return kind === 'int64' ? v : Number(v);
      }
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isInteger(n) || (kind === 'int32' && (n > 2 ** 31 - 1 || n < -(2 ** 31)))) throw new ValueRefused();
      return kind === 'int64' ? BigInt(n) : n;
    }
    case 'float': {
      const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (Number.isNaN(n)) throw new ValueRefused();
      return n;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw new ValueRefused();
  }
}

/** A refused value as an error message shows it (bigints as digits, at most 80 characters). */
export function shownValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  return (JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v)).slice(0, 80);
}
