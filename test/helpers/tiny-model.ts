/**
 * Generates a random-weight, BERT-shaped feature-extraction model in the folder layout
 * transformers.js loads from disk (config.json, tokenizer.json, tokenizer_config.json,
 * onnx/model.onnx, onnx/model_quantized.onnx).
 *
 * No pretrained weights can be fetched on the build machine, so tests and benchmarks use this to
 * exercise the real loading and inference path (tokenizer, ONNX Runtime, pooling, batching,
 * truncation, "no download") without any network. The vectors carry no meaning.
 *
 * Graph: word + token-type + position embeddings -> dense -> tanh -> zeroed where
 * attention_mask is 0. The quantized variant stores the two large matrices as uint8 behind
 * DequantizeLinear, so it loads and runs like a real `_quantized` export and gives vectors close
 * to the fp32 one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Options for {@link generateTinyModel}. */
export interface TinyModelOptions {
  /** Seed of the weight generator; same seed, same bytes. Default 1234. */
  seed?: number;
  /** Hidden size (= embedding dimensions). Default 32. */
  hidden?: number;
  /** Tokenizer and position-embedding limit. Default 512 (as MiniLM). */
  maxLength?: number;
}

export interface TinyModel {
  modelId: string;
  /** Folder holding the model files, i.e. `<rootDir>/<modelId>`. */
  dir: string;
  dims: number;
}

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const CHARS = [...'abcdefghijklmnopqrstuvwxyz0123456789', ...'.,;:!?\'"()[]{}<>-_/\\@#$%&*+=|~^`€£¥§°'];
// Frequent English and business-document words, so ordinary text becomes whole-word tokens and
// only the rest falls back to single-character pieces.
const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which ' +
  'but have an they you were her she there been one all we their has would when if will more no ' +
  'out do so can what up said about other into than its time only could new them these some may ' +
  'our us your me my any each per date due total amount invoice number tax vat net gross price ' +
  'quantity qty unit item items description order purchase receipt payment paid pay balance ' +
  'account bank iban bic swift customer client vendor supplier company ltd inc gmbh street city ' +
  'country phone email fax address name contract agreement terms conditions party parties page ' +
  'subtotal discount shipping delivery currency eur usd gbp report statement period year month ' +
  'day signature signed please thank thanks regards dear sir madam reference ref id no hello ' +
  'document file attached attachment service services product products hours rate fee fees'
).split(' ');

/** Vocabulary in id order: specials, characters, their "##" continuations, then whole words. */
function buildVocab(): string[] {
  const vocab = [...SPECIALS, ...CHARS, ...CHARS.map((c) => `##${c}`)];
  for (const w of WORDS) if (!vocab.includes(w)) vocab.push(w);
  return vocab;
}

/** mulberry32: tiny, fast, good enough for reproducible test weights. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomMatrix(next: () => number, rows: number, cols: number, scale: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = (next() * 2 - 1) * scale;
  return out;
}

type Tensor = InstanceType<typeof onnx.TensorProto>;
const T = onnx.TensorProto.DataType;

function bytes(view: ArrayBufferView): Uint8Array {
  // ONNX raw_data is little-endian, which is what typed arrays are on every platform Node runs on.
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}
function floatTensor(name: string, dims: number[], data: Float32Array): Tensor {
  return onnx.TensorProto.create({ name, dims, dataType: T.FLOAT, rawData: bytes(data) });
}
function int64Tensor(name: string, dims: number[], data: number[]): Tensor {
  return onnx.TensorProto.create({
    name,
    dims,
    dataType: T.INT64,
    rawData: bytes(BigInt64Array.from(data.map(BigInt))),
  });
}
function uint8Tensor(name: string, dims: number[], data: Uint8Array): Tensor {
  return onnx.TensorProto.create({ name, dims, dataType: T.UINT8, rawData: data });
}

/** Per-tensor asymmetric uint8 quantisation, the scheme DequantizeLinear undoes. */
function quantize(data: Float32Array): { q: Uint8Array; scale: number; zero: number } {
  let min = 0;
  let max = 0;
  for (const v of data) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const scale = (max - min) / 255 || 1;
  const zero = Math.round(-min / scale);
  const q = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) q[i] = Math.max(0, Math.min(255, Math.round(data[i] / scale) + zero));
  return { q, scale, zero };
}

function node(opType: string, input: string[], output: string[], attribute: object[] = []) {
  return onnx.NodeProto.create({ opType, input, output, name: output[0], attribute });
}

function valueInfo(name: string, elemType: number, dims: string[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((dimParam) => ({ dimParam })) } } },
  });
}

interface Weights {
  word: Float32Array;
  pos: Float32Array;
  type: Float32Array;
  dense: Float32Array;
  bias: Float32Array;
}

function buildOnnx(w: Weights, vocabSize: number, hidden: number, maxLength: number, quantized: boolean): Uint8Array {
  const initializer: Tensor[] = [
    floatTensor('position_embeddings', [maxLength, hidden], w.pos),
    floatTensor('token_type_embeddings', [2, hidden], w.type),
    floatTensor('dense_bias', [hidden], w.bias),
    int64Tensor('zero', [], [0]),
    int64Tensor('one', [], [1]),
    int64Tensor('last_axis', [1], [-1]),
  ];
  const nodes = [];
  // The two big matrices: plain floats, or uint8 + DequantizeLinear in the quantized file.
  for (const [name, data, dims] of [
    ['word_embeddings', w.word, [vocabSize, hidden]],
    ['dense_weight', w.dense, [hidden, hidden]],
  ] as const) {
    if (!quantized) {
      initializer.push(floatTensor(name, [...dims], data));
      continue;
    }
    const { q, scale, zero } = quantize(data);
    initializer.push(
      uint8Tensor(`${name}_q`, [...dims], q),
      floatTensor(`${name}_scale`, [], Float32Array.of(scale)),
      uint8Tensor(`${name}_zero`, [], Uint8Array.of(zero)),
    );
    nodes.push(node('DequantizeLinear', [`${name}_q`, `${name}_scale`, `${name}_zero`], [name]));
  }
  nodes.push(
    node('Gather', ['word_embeddings', 'input_ids'], ['word_emb']),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_emb']),
    node('Shape', ['input_ids'], ['ids_shape']),
    node(
      'Gather',
      ['ids_shape', 'one'],
      ['seq_len'],
      [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
    ),
    node('Range', ['zero', 'seq_len', 'one'], ['position_ids']),
    node('Gather', ['position_embeddings', 'position_ids'], ['pos_emb']),
    node('Add', ['word_emb', 'type_emb'], ['emb_1']),
    node('Add', ['emb_1', 'pos_emb'], ['emb']),
    node('MatMul', ['emb', 'dense_weight'], ['dense_out']),
    node('Add', ['dense_out', 'dense_bias'], ['dense_biased']),
    node('Tanh', ['dense_biased'], ['hidden']),
    node(
      'Cast',
      ['attention_mask'],
      ['mask_f'],
      [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }],
    ),
    node('Unsqueeze', ['mask_f', 'last_axis'], ['mask_3d']),
    node('Mul', ['hidden', 'mask_3d'], ['last_hidden_state']),
  );
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'docpipe-tiny-model',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'tiny_bert',
      node: nodes,
      initializer,
      input: ['input_ids', 'attention_mask', 'token_type_ids'].map((n) =>
        valueInfo(n, T.INT64, ['batch_size', 'sequence_length']),
      ),
      output: [valueInfo('last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', String(hidden)])],
    },
  });
  // A numeric dim is expressed as dimValue, not dimParam.
  const outDims = model.graph!.output![0].type!.tensorType!.shape!.dim!;
  outDims[2] = { dimValue: hidden };
  return onnx.ModelProto.encode(model).finish();
}

function tokenizerJson(vocab: string[], _maxLength: number): object {
  const id = (t: string) => vocab.indexOf(t);
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

/**
 * Writes the tiny model to `<rootDir>/<modelId>/` and returns where it is. Point transformers.js
 * at it with `env.localModelPath = rootDir`, `env.allowRemoteModels = false`.
 * Deterministic: the same seed writes byte-identical files.
 */
export async function generateTinyModel(
  rootDir: string,
  modelId = 'docpipe-test/tiny-bert',
  opts: TinyModelOptions = {},
): Promise<TinyModel> {
  const hidden = opts.hidden ?? 32;
  const maxLength = opts.maxLength ?? 512;
  const vocab = buildVocab();
  const next = rng(opts.seed ?? 1234);
  const weights: Weights = {
    word: randomMatrix(next, vocab.length, hidden, 1),
    pos: randomMatrix(next, maxLength, hidden, 0.1),
    type: randomMatrix(next, 2, hidden, 0.1),
    dense: randomMatrix(next, hidden, hidden, 1 / Math.sqrt(hidden)),
    bias: randomMatrix(next, 1, hidden, 0.05),
  };
  const dir = path.join(rootDir, ...modelId.split('/'));
  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  const config = {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: hidden,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: hidden,
    max_position_embeddings: maxLength,
    type_vocab_size: 2,
    vocab_size: vocab.length,
    pad_token_id: 0,
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxLength,
    clean_up_tokenization_spaces: true,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  };
  await Promise.all([
    writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2)),
    writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab, maxLength))),
    writeFile(path.join(dir, 'onnx', 'model.onnx'), buildOnnx(weights, vocab.length, hidden, maxLength, false)),
    writeFile(
      path.join(dir, 'onnx', 'model_quantized.onnx'),
      buildOnnx(weights, vocab.length, hidden, maxLength, true),
    ),
  ]);
  return { modelId, dir, dims: hidden };
}
