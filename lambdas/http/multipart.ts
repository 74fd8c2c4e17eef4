// multipart/form-data parsing for Lambda proxy events (the body arrives base64-encoded).
// Array fields are normalised here: repeated parts, `name[]` parts and (by the caller's choice)
// comma-joined strings all end up as string arrays keyed by the bare name.
import busboy from 'busboy';
import { PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../errors';
import { NAME_MAX_CHARS } from '../validation';

/** A text field's limit: parameters and request_data (nodes ≤ 64 KiB of settings each) stay far below. */
export const MAX_FIELD_BYTES = 1024 * 1024;
/** Parts that are not files: the largest form (partition) has about 40 parameters. */
const MAX_FIELDS = 1000;

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string[]>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  /** The body may be absent (or not multipart at all) when set. */
  optional?: boolean;
  maxFiles: number;
  maxFileBytes: number;
  fileFields: string[];
}

const nameless = () => ValidationError.single(['body'], 'A multipart part has no name (Content-Disposition: form-data; name="...")', 'missing');
const malformed = (err: Error) => ValidationError.single(['body'], `Malformed multipart body: ${err.message}`, 'value_error');

export function parseMultipart(body: Buffer, contentType: string | undefined, limits: MultipartLimits): Promise<MultipartForm> {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) {
    throw new UnsupportedMediaType('Expected a multipart/form-data request body');
  }
  return new Promise((resolve, reject) => {
    const form: MultipartForm = { fields: {}, files: [] };
    // -- field names are client data (`__proto__`, `constructor`): gathered in a Map, made own
    // -- properties at the end, never looked up on a plain object where Object.prototype answers --
    const fields = new Map<string, string[]>();
    let failed: Error | undefined;
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: { 'content-type': contentType },
        limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes, fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS },
        defParamCharset: 'utf8',
      });
    } catch (err) {
      reject(malformed(err as Error));
      return;
    }
    bb.on('field', (rawName, value, info) => {
      // -- a part without `name` (or `name=""`) is the client's mistake, said at its place --
      if (!rawName) {
        failed ??= nameless();
        return;
      }
      const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
      // -- busboy cuts a long value silently: refuse it rather than act on a truncated one --
      if (info.valueTruncated) {
        failed ??= ValidationError.single(['body', name], `Form field ${name.slice(0, 100)} is longer than ${MAX_FIELD_BYTES / 1024 / 1024} MiB`, 'string_too_long');
        return;
      }
      fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    bb.on('fieldsLimit', () => {
      failed ??= ValidationError.single(['body'], `At most ${MAX_FIELDS} form fields are accepted`, 'too_long');
    });
    bb.on('file', (rawName, stream, info) => {
      if (!rawName) {
        failed ??= nameless();
        stream.resume();
        return;
      }
      const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
      if ((info.filename ?? '').length > NAME_MAX_CHARS) {
        failed ??= ValidationError.single(['body', name], `A file name is longer than ${NAME_MAX_CHARS} characters`, 'string_too_long');
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      // -- a part cut off before its boundary errors the part's stream too ("Unexpected end of form");
      // -- unlistened, that 'error' would be an uncaught exception of the whole process --
      stream.on('error', (err: Error) => {
        failed ??= malformed(err);
      });
      stream.on('limit', () => {
        failed ??= new PayloadTooLarge(`File ${info.filename ?? name} exceeds the ${Math.round(limits.maxFileBytes / 1e6)} MB limit`);
      });
      stream.on('end', () => {
        if (!limits.fileFields.includes(name)) return;
        form.files.push({
          field: name,
          filename: info.filename || 'upload',
          contentType: info.mimeType || 'application/octet-stream',
          data: Buffer.concat(chunks),
        });
      });
    });
    bb.on('filesLimit', () => {
      failed ??= ValidationError.single(['body', limits.fileFields[0] ?? 'files'], `At most ${limits.maxFiles} files are accepted`, 'too_long');
    });
    bb.on('error', (err: Error) => reject(failed ?? malformed(err)));
    bb.on('close', () => {
      form.fields = Object.fromEntries(fields);
      if (failed) reject(failed);
      else resolve(form);
    });
    bb.end(body);
  });
}
