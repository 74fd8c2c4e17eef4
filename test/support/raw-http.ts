// Raw HTTP over a TCP socket, for requests that fetch cannot send (a malformed request line, a body
// that stops before its closing boundary, a client that disconnects mid-upload).
import { connect } from 'node:net';

export interface RawResponse {
  /** Status code of the first response line, or undefined when the server closed without answering. */
  status?: number;
  head: string;
  body: string;
}

/**
 * Sends `payload` as is and reads until the server closes the connection or `timeoutMs` passes
 * (then the socket is destroyed and `timedOut` is true). Send `Connection: close` in `payload` for
 * a well-formed request, or the server keeps the connection open for the next one.
 */
export function rawRequest(
  baseUrl: string,
  payload: string | Buffer,
  timeoutMs = 20_000,
  opts: { endAfterWrite?: boolean } = {},
): Promise<RawResponse & { timedOut: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, timeoutMs);
    // -- endAfterWrite half-closes: "that is all I send", as a client that stops mid-body does --
    socket.on('connect', () => (opts.endAfterWrite ? socket.end(payload) : socket.write(payload)));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => {
      clearTimeout(timer);
      if (chunks.length) finish();
      else reject(err);
    });
    socket.on('close', () => finish());
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const cut = text.indexOf('\r\n\r\n');
      const head = cut >= 0 ? text.slice(0, cut) : text;
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: m ? Number(m[1]) : undefined, head, body: cut >= 0 ? text.slice(cut + 4) : '', timedOut });
    }
  });
}

/** Opens a connection, writes `payload`, then destroys the socket without waiting for an answer. */
export function abortAfterWriting(baseUrl: string, payload: string | Buffer): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(payload, () => {
        // -- give the server the bytes, then vanish mid-body --
        socket.destroy();
        resolve();
      });
    });
  });
}
