// A local model server speaking four providers' wire formats, for contract tests, the e2e stack
// and `npm run bench:enrich`: OpenAI chat completions (POST …/chat/completions), Anthropic Messages
// (POST …/v1/messages), Bedrock Converse (POST /model/{id}/converse, over h2c as the runtime client
// speaks HTTP/2) and Vertex AI generateContent (POST …/models/{model}:generateContent). It records
// every request. By default it answers each task plausibly from the prompt (so a real pipeline runs
// through it); `reply` scripts errors, refusals and malformed bodies.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createH2cServer } from 'node:http2';
import type { AddressInfo } from 'node:net';

export type WireProvider = 'openai' | 'anthropic' | 'bedrock' | 'vertexai';

export interface RecordedCall {
  provider: WireProvider;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The text prompt and image (base64) of the request, whatever the provider's shape. */
  prompt: string;
  system: string;
  image?: string;
}

/** A scripted answer: model text, a refusal, or a raw HTTP reply. */
export type Scripted = { text: string } | { refuse: true } | { status: number; headers?: Record<string, string>; body: string | object };
export type Reply = (call: RecordedCall, n: number) => Scripted | undefined;

export interface ModelServer {
  url: string;
  calls: RecordedCall[];
  maxInFlight(): number;
  close(): Promise<void>;
}

function providerOf(url: string): WireProvider | undefined {
  if (/\/chat\/completions$/.test(url)) return 'openai';
  if (/\/v1\/messages$/.test(url)) return 'anthropic';
  if (/^\/model\/[^/]+\/converse$/.test(url)) return 'bedrock';
  if (/:generateContent(\?|$)/.test(url)) return 'vertexai';
  return undefined;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The prompt, system text and image of a request in each provider's shape. */
function parts(provider: WireProvider, b: Json): Pick<RecordedCall, 'prompt' | 'system' | 'image'> {
  const texts: string[] = [];
  let image: string | undefined;
  let system = '';
  if (provider === 'openai') {
    for (const m of b.messages ?? []) {
      if (m.role === 'system') system = String(m.content);
      else for (const c of Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }]) {
        if (c.type === 'text') texts.push(c.text);
        if (c.type === 'image_url') image = String(c.image_url?.url ?? '').replace(/^data:[^,]*,/, '');
      }
    }
  } else if (provider === 'anthropic') {
    system = typeof b.system === 'string' ? b.system : '';
    for (const m of b.messages ?? []) for (const c of m.content ?? []) {
      if (c.type === 'text') texts.push(c.text);
      if (c.type === 'image') image = c.source?.data;
    }
  } else if (provider === 'bedrock') {
    system = (b.system ?? []).map((s: Json) => s.text).join('');
    for (const m of b.messages ?? []) for (const c of m.content ?? []) {
      if (c.text) texts.push(c.text);
      if (c.image) image = c.image.source?.bytes;
    }
  } else {
    system = (b.systemInstruction?.parts ?? []).map((p: Json) => p.text).join('');
    for (const m of b.contents ?? []) for (const p of m.parts ?? []) {
      if (p.text) texts.push(p.text);
      if (p.inlineData) image = p.inlineData.data;
    }
  }
  return { prompt: texts.join('\n'), system, ...(image ? { image } : {}) };
}

/** A plausible answer for the task the request asks for (told apart by its system text). */
export function defaultAnswer(call: RecordedCall): string {
  const s = call.system;
  if (/describe images/.test(s)) return JSON.stringify({ type: 'diagram', description: `A test image of ${call.image?.length ?? 0} base64 characters.` });
  if (/named entities/.test(s)) {
    const words = [...new Set(call.prompt.split('Text:\n')[1]?.match(/\b[A-Z][a-z]+\b/g) ?? [])].slice(0, 3);
    return JSON.stringify({ items: words.map((w) => ({ entity: w, type: 'ORGANIZATION' })), relationships: [] });
  }
  if (/into HTML/.test(s)) return '```html\n<table><tbody><tr><td>cell</td></tr></tbody></table>\n```';
  if (/situate a chunk/.test(s)) return 'This chunk is part of a test document.';
  return 'A table of test values.';
}

function answerBody(provider: WireProvider, model: string, text: string | undefined): Json {
  const refused = text === undefined;
  switch (provider) {
    case 'openai':
      return { id: 'chatcmpl-test', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: refused ? null : text, refusal: refused ? 'I cannot help with that.' : null }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    case 'anthropic':
      return { id: 'msg_test', type: 'message', role: 'assistant', model, content: refused ? [] : [{ type: 'text', text }], stop_reason: refused ? 'refusal' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    case 'bedrock':
      return { output: { message: { role: 'assistant', content: refused ? [] : [{ text }] } }, stopReason: refused ? 'content_filtered' : 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } };
    case 'vertexai':
      return { candidates: [{ content: { role: 'model', parts: refused ? [] : [{ text }] }, finishReason: refused ? 'SAFETY' : 'STOP' }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 }, modelVersion: model };
  }
}

/** Starts the server on 127.0.0.1 (port 0). `h2c`: HTTP/2 without TLS, for the Bedrock client. */
export async function startModelServer(opts: { reply?: Reply; latencyMs?: number; h2c?: boolean } = {}): Promise<ModelServer> {
  const calls: RecordedCall[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const url = req.url ?? '';
      const provider = providerOf(url.split('?')[0]!);
      let body: Json = {};
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json; } catch { /* recorded empty */ }
      const send = (status: number, out: string | object, headers: Record<string, string> = {}) =>
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(typeof out === 'string' ? out : JSON.stringify(out));
        }, opts.latencyMs ?? 0);
      if (!provider) return send(404, { message: `no route ${url}` });
      const call: RecordedCall = { provider, url, headers: req.headers, body, ...parts(provider, body) };
      calls.push(call);
      const model = String(body.model ?? decodeURIComponent(url.match(/models?\/([^/:]+)/)?.[1] ?? 'test-model'));
      const scripted = opts.reply?.(call, calls.length);
      if (scripted && 'status' in scripted) return send(scripted.status, scripted.body, scripted.headers);
      const text = scripted && 'refuse' in scripted ? undefined : scripted?.text ?? defaultAnswer(call);
      send(200, answerBody(provider, model, text));
    });
  };
  const server = opts.h2c ? createH2cServer(handler as never) : createServer(handler);
  // clients keep connections (HTTP/1.1 keep-alive, HTTP/2 sessions): closed with the server
  const open = new Set<{ destroy(): void }>();
  server.on(opts.h2c ? 'session' : 'connection', (c: { destroy(): void; once(e: string, f: () => void): void }) => {
    open.add(c);
    c.once('close', () => open.delete(c));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const c of open) c.destroy();
      }),
  };
}
