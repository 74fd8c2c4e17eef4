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
