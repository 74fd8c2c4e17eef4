// A partition sandbox worker (see sandbox.ts): partitions one document at a time on this thread,
// within the heap limits the pool gave it, and answers with the elements as one buffer of JSON
// (transferred) or with the error, serialized so the pool can throw the same typed error.
import { parentPort } from 'node:worker_threads';
import { partitionDocument } from './pipeline';
import { serializeError, type SandboxReply, type SandboxRequest } from './sandbox-protocol';

const port = parentPort;
if (port) {
  const encoder = new TextEncoder();
  const reply = (m: SandboxReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  port.on('message', async (m: SandboxRequest) => {
    try {
      const r = await partitionDocument({ data: new Uint8Array(m.data), filename: m.filename, contentType: m.contentType }, m.options, m.extras);
      const json = encoder.encode(JSON.stringify(r.elements));
      reply({ id: m.id, ok: true, json, warnings: r.warnings, filetype: r.filetype }, [json.buffer as ArrayBuffer]);
    } catch (err) {
      reply({ id: m.id, ok: false, error: serializeError(err) });
    }
  });
  reply({ ready: true });
}
