// npm run bench:enrich — elements per second through the prompter node (image descriptions) against
// a local OpenAI-wire stand-in that takes 200 ms per call: shows what the bounded concurrency buys
// (the target: 100 image descriptions in under 5 s wall). Each image is a real 64×64 PNG crop.
// Usage: node --import tsx test/bench/enrich.ts [--images N] [--latency MS]
import { deflateSync } from 'node:zlib';
import { makeElement, type Element } from '../../lambdas/engine/elements';
import { enrichElements, parsePrompterNode } from '../../lambdas/engine/enrichment/index';
import { startModelServer } from '../../lambdas/engine/enrichment/test-server';
import { rgbaToPng } from '../../lambdas/engine/partition/image/bitmap';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('--images', 100);
const LATENCY = arg('--latency', 200);

function images(): Element[] {
  return Array.from({ length: N }, (_, k) => {
    const rgba = new Uint8Array(64 * 64 * 4).map((_v, i) => (i * 7 + k * 13) & 255);
    const png = rgbaToPng(rgba, 64, 64, (b) => deflateSync(b));
    return makeElement('Image', '', { filename: 'bench.pdf', page_number: 1 + (k % 10), image_base64: Buffer.from(png).toString('base64'), image_mime_type: 'image/png' });
  });
}

const server = await startModelServer({ latencyMs: LATENCY });
console.log(`prompter node, openai_image_description, ${N} images, stand-in latency ${LATENCY} ms per call`);
console.log('concurrency | wall (s) | elements/s | max in flight | described');
try {
  for (const concurrency of [1, 8, 32]) {
    if (concurrency === 1 && N * LATENCY > 30_000) continue;
    const els = images();
    const before = server.calls.length;
    const t0 = performance.now();
    const r = await enrichElements(els, parsePrompterNode('openai_image_description', { api_key: 'bench', base_url: `${server.url}/v1`, concurrency }), {});
    const wall = (performance.now() - t0) / 1000;
    console.log(`${String(concurrency).padStart(11)} | ${wall.toFixed(2).padStart(8)} | ${(N / wall).toFixed(1).padStart(10)} | ${String(server.maxInFlight()).padStart(13)} | ${r.enriched}/${N} (${server.calls.length - before} calls)`);
  }
  console.log('default concurrency is 8 (settings.concurrency, 1..64)');
} finally {
  await server.close();
}
