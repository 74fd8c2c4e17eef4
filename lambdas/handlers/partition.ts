// POST /general/v0/general: multipart upload (part `files`, one or several), elements out.
// Partition warnings (partial results) travel in the `x-partition-warnings` header.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { reply, text } from '../http/response';
import { runPartitionRequest } from '../domain/partition-request';
import { config } from '../config';

export const partition = httpRoute(routeById('partition'), async ({ form, principal }) => {
  const out = await runPartitionRequest(
    form!.files.map((f) => ({ filename: f.filename, contentType: f.contentType, data: f.data })),
    form!.fields,
    config().RESPONSE_MAX_BYTES,
    principal.accountId,
  );
  const headers: Record<string, string> = {};
  if (out.warnings.length) headers['x-partition-warnings'] = encodeURIComponent(out.warnings.join(' | ').slice(0, 2000));
  return reply(text(200, out.body, out.contentType, headers));
});
