// Presigned uploads: the way to give a job files larger than API Gateway's 10 MB request cap (spec
// limit: 50 MB per file). The client asks for an upload, PUTs the file to the returned URL (straight
// to S3, never through a Lambda), then names the upload in create-job or run-workflow
// (`input_upload_ids`). An upload is used once, by the account that created it, within a day.
// The storage holds the client to what it declared: the URL signs the file's exact `size` and
// `If-None-Match: *`, so a larger body, or a second PUT once the file is there, is refused by S3
// itself (403 / 412), before any byte is kept.
import type { AccountQuotas } from './quotas';
import { randomUUID } from 'node:crypto';
import { ENTITY, keys } from '../data/keys';
import { Conflict, NotFound, ValidationError } from '../errors';
import type { Principal } from './auth';
import type { BlobStore, Clock, KeyValueStore } from './ports';
import { systemClock } from './ports';

export const MAX_UPLOAD_BYTES = 50 * 1000 * 1000;
/** How long the PUT URL works. */
const UPLOAD_URL_SECONDS = 15 * 60;
/** How long an upload can wait for its job. */
const UPLOAD_TTL_SECONDS = 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UploadTicket {
  id: string;
  filename: string;
  content_type: string;
  upload_url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
  max_bytes: number;
  size: number;
}

/** An uploaded file a job takes over: its object stays where it was uploaded. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  size: number;
  blobKey: string;
}

export class UploadService {
  constructor(
    private readonly store: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly clock: Clock = systemClock,
    private readonly quotas?: AccountQuotas,
  ) {}

  /** Uploads of the account neither used by a job nor expired. */
  private async outstanding(accountId: string): Promise<number> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const items = await this.store.queryPrefix(keys.account(accountId), keys.uploadPrefix);
    return items.filter((u) => !u.claimedBy && !(u.expiresAt !== undefined && Number(u.expiresAt) < now)).length;
  }

  async create(p: Principal, body: { filename: string; content_type?: string; size: number }): Promise<UploadTicket> {
    await this.quotas?.assertUploadRoom(() => this.outstanding(p.accountId));
    const id = randomUUID();
    const now = this.clock.now();
    const contentType = body.content_type || 'application/octet-stream';
    const blobKey = keys.uploadObject(p.accountId, id);
    const url = await this.blobs.presignPut(blobKey, contentType, body.size, UPLOAD_URL_SECONDS);
    await this.store.put({
      ...keys.upload(p.accountId, id),
      entity: ENTITY.upload,
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + UPLOAD_TTL_SECONDS,
      id,
      filename: body.filename,
      contentType,
      blobKey,
      size: body.size,
    });
    return {
      id,
      filename: body.filename,
      content_type: contentType,
      upload_url: url,
      method: 'PUT',
      // -- Content-Length is signed too, but every HTTP client sends it from the body: a body of `size` bytes --
      headers: { 'content-type': contentType, 'if-none-match': '*' },
      expires_at: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
      max_bytes: MAX_UPLOAD_BYTES,
      size: body.size,
    };
  }

  /**
   * Takes the named uploads for a job: each must be this account's, unexpired, unused, uploaded and
   * within the size limit (422 naming the field otherwise; unknown ids 404). Each is claimed once.
   */
  async claim(p: Principal, ids: string[]): Promise<UploadedFile[]> {
    const loc = ['body', 'input_upload_ids'];
    const bad = ids.findIndex((id) => !UUID.test(id));
    if (bad >= 0) throw ValidationError.single([...loc, bad], 'Input should be a valid UUID', 'uuid_parsing');
    if (new Set(ids).size !== ids.length) throw ValidationError.single(loc, 'An upload may be named only once', 'value_error');
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const found = await Promise.all(ids.map((id) => this.store.get(keys.upload(p.accountId, id))));
    for (const [i, item] of found.entries()) {
      if (!item || (item.expiresAt !== undefined && item.expiresAt < now)) throw new NotFound(`Upload ${ids[i]} not found`);
      if (item.claimedBy) throw ValidationError.single(loc, `Upload ${ids[i]} was already used by job input`, 'value_error');
    }
    const sizes = await Promise.all(found.map((item) => this.blobs.size(String(item!.blobKey))));
    const files: UploadedFile[] = [];
    for (const [i, item] of found.entries()) {
      const size = sizes[i];
      if (size === undefined) throw ValidationError.single(loc, `Upload ${ids[i]} has no file yet: PUT the file to its upload_url first`, 'value_error');
      if (size === 0) throw ValidationError.single(loc, `Upload ${ids[i]} is empty`, 'value_error');
      if (item!.size !== undefined && size !== Number(item!.size)) throw ValidationError.single(loc, `Upload ${ids[i]} is ${size} bytes; ${item!.size} were declared`, 'value_error');
      if (size > MAX_UPLOAD_BYTES) throw ValidationError.single(loc, `Upload ${ids[i]} is ${size} bytes; the limit is ${MAX_UPLOAD_BYTES}`, 'value_error');
      files.push({ filename: String(item!.filename), contentType: String(item!.contentType), size, blobKey: String(item!.blobKey) });
    }
    // -- one use: a concurrent second claim of the same upload fails here --
    await Promise.all(ids.map(async (id) => {
      try {
        await this.store.update(keys.upload(p.accountId, id), { set: { claimedBy: 'job' }, conditions: [{ attr: 'claimedBy', op: 'notExists' }] });
      } catch (err) {
        if (err instanceof Conflict) throw ValidationError.single(loc, `Upload ${id} was already used by job input`, 'value_error');
        throw err;
      }
    }));
    return files;
  }
}
