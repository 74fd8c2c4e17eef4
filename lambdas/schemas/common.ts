// Shared schema pieces: path ids, query booleans, error bodies.
import { z } from 'zod';

/** A query-string boolean as FastAPI reads it. */
export const queryBool = z
  .enum(['true', 'false', 'True', 'False', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', 'True', '1', 'yes', 'on'].includes(v));

export const uuidParam = z.uuid({ message: 'Input should be a valid UUID' });

/** Template ids are slugs (hi_res_partition): checked before the catalogue is searched. */
export const templateIdString = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'a template id is letters, digits, _ and - (at most 100)' });

/** A filter value compared with stored short strings (types, ids): bounded like them. */
export const shortString = z.string().max(100);

export const ValidationErrorItem = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  })
  .meta({ id: 'ValidationError' });

export const HTTPValidationError = z.object({ detail: z.array(ValidationErrorItem) }).meta({ id: 'HTTPValidationError' });

export const DetailMessage = z.object({ detail: z.string() }).meta({ id: 'DetailMessage' });

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A timestamp as the platform (pydantic) reads one: RFC 3339 with or without a zone, `T` or a space
 * between date and time, or a date alone. No zone means UTC, as on the platform's servers. The output
 * is normalized to `YYYY-MM-DDTHH:mm:ss.sssZ`, so stored timestamps compare as strings.
 */
export const lenientTimestamp = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const m = TIMESTAMP.exec(v.trim());
    const zone = m?.[3] ? m[3].toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : 'Z';
    const iso = m ? `${m[1]}T${m[2] ?? '00:00'}${m[2] && m[2].length === 5 ? ':00' : ''}${zone}` : '';
    const t = Date.parse(iso);
    // Date.parse rolls 2026-02-30 over to March: the date part must survive a round trip.
    const realDay = m && !Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`)) && new Date(`${m[1]}T00:00:00Z`).toISOString().slice(0, 10) === m[1];
    if (!m || !realDay || Number.isNaN(t)) {
      ctx.addIssue({ code: 'custom', message: 'Input should be a valid datetime (YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]; no zone = UTC)', input: v });
      return z.NEVER;
    }
    return new Date(t).toISOString();
  })
  .meta({ description: 'A date-time; without a zone it is read as UTC, a date alone as its midnight UTC', examples: ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00', '2026-01-01'] });
