// Hosted vision-language model partitioning: one request per page image, the model returns the
// page's elements as JSON. Providers are the vendors' official clients (`openai`, `@anthropic-ai/sdk`,
// the Bedrock runtime client's Converse), configured from the environment; resolveVlmProvider returns
// undefined when none is configured (callers fall back to local OCR and say so in
// metadata.partitioner_note; job nodes refuse that unless the deployment allows offline stand-ins:
// vlmCredentialProblem in ./credentials.ts says why, naming the variables to set, without loading any
// client). Requests go out through the outbound policy's fetch (lambdas/net/outbound.ts), like every
// call made for a tenant's document; the Bedrock client (HTTP/2, no agent) has its endpoint checked
// under the policy before each call.
import { deflateSync } from 'node:zlib';
import { ELEMENT_TYPES, makeElement, type Element, type ElementType } from '../../elements';
import { guardedFetch } from '../../../net/outbound';
import { grayToPng } from '../image/bitmap';
import type { PartitionOptions, VlmOptions } from '../types';
import { anthropicProvider } from './anthropic';
import { bedrockProvider } from './bedrock';
import { openaiProvider } from './openai';
import { bedrockKeys, configuredVlmProvider, type Env, type VlmProviderName } from './credentials';
import type { VlmClient } from './client';

export interface PageImage { gray: Uint8Array; width: number; height: number; page: number }

export interface VlmProvider {
  name: string;
  partitionPage(img: PageImage, options: PartitionOptions): Promise<Element[]>;
}


export const VLM_PROMPT = [
  'You convert one page image of a document into structured elements.',
  'Return ONLY a JSON array, in reading order, of objects {"type": T, "text": string} where T is one of',
  'Title, NarrativeText, ListItem, Table, Header, Footer, PageNumber, FigureCaption, Image, Formula.',
  'For Table also give "html": a <table> with <tr>/<td>. Transcribe text exactly; do not summarise.',
].join(' ');

const TIMEOUT_MS = 120_000;

/** Parses the model's answer: a JSON array (possibly in a code fence) of {type, text, html?}. */
export function parseVlmAnswer(answer: string, page: number, note?: Record<string, unknown>): Element[] {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer)?.[1] ?? answer;
  const start = fenced.indexOf('[');
  const end = fenced.lastIndexOf(']');
  if (start < 0 || end <= start) throw new Error('model answer is not a JSON array');
  const items = JSON.parse(fenced.slice(start, end + 1)) as unknown;
  if (!Array.isArray(items)) throw new Error('model answer is not a JSON array');
  const out: Element[] = [];
  for (const it of items) {
    if (!it || typeof it !== 'object') continue;
    const o = it as Record<string, unknown>;
    const text = typeof o.text === 'string' ? o.text.trim() : '';
    let type = typeof o.type === 'string' ? o.type : 'NarrativeText';
    if (!(ELEMENT_TYPES as readonly string[]).includes(type)) type = 'UncategorizedText';
    if (!text && type !== 'Image') continue;
    const md: Record<string, unknown> = { page_number: page, ...note };
    if (type === 'Table' && typeof o.html === 'string') md.text_as_html = o.html;
    out.push(makeElement(type as ElementType, text, md));
  }
  return out;
}

function providerFromClient(client: VlmClient): VlmProvider {
  return {
    name: client.name,
    async partitionPage(img, _options) {
      const png = grayToPng(img.gray, img.width, img.height, (b) => deflateSync(b, { level: 6 }));
      const signal = AbortSignal.timeout(TIMEOUT_MS);
      const answer = await client.complete(png, VLM_PROMPT, signal);
      return parseVlmAnswer(answer, img.page);
    },
  };
}

/** The configured provider's client for these options, or undefined (no credentials in env; see ./credentials.ts). */
export function resolveVlmProvider(opts: VlmOptions | undefined, env: Env = process.env, fetchImpl: typeof fetch = guardedFetch): VlmProvider | undefined {
  const name = configuredVlmProvider(opts, env);
  const clients: Record<VlmProviderName, () => VlmClient> = {
    openai: () => openaiProvider(env.OPENAI_API_KEY!, env, opts?.model, fetchImpl),
    anthropic: () => anthropicProvider(env.ANTHROPIC_API_KEY!, env, opts?.model, fetchImpl),
    bedrock: () => bedrockProvider(bedrockKeys(env)!, env, opts?.model),
    anthropic_bedrock: () => bedrockProvider(bedrockKeys(env)!, env, opts?.model),
  };
  return name ? providerFromClient(clients[name]()) : undefined;
}
