// A partition sandbox process (see sandbox.ts): partitions one document at a time, within the heap
// flags the pool started it with, and answers over IPC with the elements as one buffer of JSON or
// with the error, serialized so the pool can throw the same typed error. It exits with its parent.
import { partitionDocument } from './pipeline';
import { withLogContext } from '../../logger';
import { PROGRESS_EVERY_MS, serializeError, type SandboxReply, type SandboxRequest } from './sandbox-protocol';
import { sandboxSettings } from './sandbox';
import { setPagePoolIdleMs } from './pdf/pool';

if (process.send) {
  // -- this process lives while it is useful (the pool stops it when idle): its page workers too --
  setPagePoolIdleMs(sandboxSettings().idleS * 1000);
  const encoder = new TextEncoder();
  const reply = (m: SandboxReply) => process.send!(m);
  // the parent went away (crashed, killed): nothing to work for
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (m: SandboxRequest) => {
    for (const k of Object.keys(process.env)) if (!(k in m.env)) delete process.env[k];
    Object.assign(process.env, m.env);
    try {
      const data = new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength);
      let last = 0;
      const onProgress = (done: number, total: number) => {
        if (done < total && Date.now() - last < PROGRESS_EVERY_MS) return;
        last = Date.now();
        reply({ id: m.id, progress: [done, total] });
      };
      const extras = m.progress ? { ...m.extras, onProgress } : m.extras;
      const r = await withLogContext(m.log ?? {}, () => partitionDocument({ data, filename: m.filename, contentType: m.contentType }, m.options, extras));
      reply({ id: m.id, ok: true, json: encoder.encode(JSON.stringify(r.elements)), warnings: r.warnings, filetype: r.filetype, pageCount: r.pageCount });
    } catch (err) {
      reply({ id: m.id, ok: false, error: serializeError(err) });
    }
  });
  reply({ ready: true });
}
