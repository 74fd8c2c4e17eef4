// Writes a tiny transformers.js model directory for tests and benches: a BERT-style WordPiece
// tokenizer over single letters/digits and an ONNX graph that is one Gather from a deterministic
// embedding table (input_ids → last_hidden_state). Real loading code runs on it; no weights are
// downloaded. The ONNX protobuf is encoded by hand (ModelProto, opset 13).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const vField = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const bField = (field: number, bytes: ArrayLike<number>) => [...key(field, 2), ...varint(bytes.length), ...Array.from(bytes)];
const sField = (field: number, s: string) => bField(field, Buffer.from(s, 'utf8'));

function dim(d: number | string): number[] {
  return typeof d === 'number' ? vField(1, d) : sField(2, d);
}
function valueInfo(name: string, elemType: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((d) => bField(1, dim(d)));
  const tensorType = [...vField(1, elemType), ...bField(2, shape)];
  return [...sField(1, name), ...bField(2, bField(1, tensorType))];
}

export interface TinyModel {
  dir: string;
  hidden: number;
  vocabSize: number;
}

/** Creates `<parent>/<name>` with config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx. */
export function writeTinyModel(parent: string, name = 'tiny-bert', hidden = 16): TinyModel {
  const dir = path.join(parent, name);
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
  const vocabList = [...specials, ...chars, ...chars.map((c) => `##${c}`), '.', ',', '!', '?', '-', "'"];
  const vocab: Record<string, number> = Object.fromEntries(vocabList.map((t, i) => [t, i]));
  const V = vocabList.length;

  // -- embedding table: deterministic, distinct rows --
  const table = new Float32Array(V * hidden);
  for (let i = 0; i < V; i++) for (let j = 0; j < hidden; j++) table[i * hidden + j] = Math.sin((i + 1) * (j + 1) * 0.37) + (i % 7) * 0.01;
  const tensor = [...vField(1, V), ...vField(1, hidden), ...vField(2, 1), ...sField(8, 'embeddings'), ...bField(9, new Uint8Array(table.buffer))];
  const node = [...sField(1, 'embeddings'), ...sField(1, 'input_ids'), ...sField(2, 'last_hidden_state'), ...sField(3, 'gather'), ...sField(4, 'Gather')];
  const graph = [
    ...bField(1, node),
    ...sField(2, 'tiny'),
    ...bField(5, tensor),
    ...bField(11, valueInfo('input_ids', 7, ['batch', 'sequence'])),
    ...bField(11, valueInfo('attention_mask', 7, ['batch', 'sequence'])),
    ...bField(12, valueInfo('last_hidden_state', 1, ['batch', 'sequence', hidden])),
  ];
  const model = [...vField(1, 8), ...sField(2, 'tiny-model-writer'), ...bField(7, graph), ...bField(8, [...sField(1, ''), ...vField(2, 13)])];
  writeFileSync(path.join(dir, 'onnx', 'model.onnx'), Buffer.from(model));

  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: hidden, vocab_size: V, max_position_embeddings: 512 }));
  const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((s, i) => special(s, i)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
  writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  writeFileSync(
    path.join(dir, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, pad_token: '[PAD]', unk_token: '[UNK]', cls_token: '[CLS]', sep_token: '[SEP]', clean_up_tokenization_spaces: true }),
  );
  return { dir, hidden, vocabSize: V };
}
