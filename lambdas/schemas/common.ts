// Shared schema pieces: path ids, query booleans, error bodies.
import { z } from 'zod';

/** A query-string boolean as FastAPI reads it. */
export const queryBool = z
  .enum(['true', 'false', 'True', 'False', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', 'True', '1', 'yes', 'on'].includes(v));

export const uuidParam = z.uuid({ message: 'Input should be a valid UUID' });

export const ValidationErrorItem = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  })
  .meta({ id: 'ValidationError' });

export const HTTPValidationError = z.object({ detail: z.array(ValidationErrorItem) }).meta({ id: 'HTTPValidationError' });

export const DetailMessage = z.object({ detail: z.string() }).meta({ id: 'DetailMessage' });
