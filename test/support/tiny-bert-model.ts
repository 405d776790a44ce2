import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A tiny BERT-shaped model folder, built here because the tests have no network: what fastembed
 * loads for BGE-small (model_optimized.onnx, tokenizer.json, config.json, tokenizer_config.json,
 * special_tokens_map.json), with a 40-word WordPiece vocabulary and an ONNX graph of two nodes:
 * each token's row of a fixed embedding table (Gather), summed over the sequence (ReduceSum,
 * kept as one position), so the "CLS" vector fastembed pools is a bag of the text's words.
 * Texts sharing words then score higher than texts that share none, which the test checks.
 */
export function writeTinyBertModel(dir: string, dimensions: number): { vocabulary: string[] } {
  const words = [
    'postgres', 'database', 'connection', 'pool', 'timeout', 'tests', 'ci', 'docker', 'tabs', 'spaces', 'makefile', 'indent',
    'prefer', 'use', 'the', 'a', 'in', 'for', 'when', 'runs', 'fails', 'slow', 'query', 'index', 'lint', 'format', 'branch', 'merge',
    'review', 'deploy',
  ];
  const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const vocabulary = [...special, ...words];
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model_optimized.onnx'), tinyModel(vocabulary.length, dimensions));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocabulary)));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: dimensions, pad_token_id: 0, vocab_size: vocabulary.length }));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 32, pad_token: '[PAD]', cls_token: '[CLS]', sep_token: '[SEP]', unk_token: '[UNK]', do_lower_case: true }));
  writeFileSync(join(dir, 'special_tokens_map.json'), JSON.stringify({ cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }));
  return { vocabulary };
}

function tokenizerJson(vocabulary: string[]) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: vocabulary.slice(0, 5).map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocabulary.map((word, id) => [word, id])) },
  };
}

/**
 * The ONNX ModelProto, protobuf-encoded by hand (field numbers from onnx.proto): inputs
 * input_ids, attention_mask, token_type_ids (int64 [batch, seq]); output last_hidden_state
 * (float [batch, 1, dimensions]). Padding and special tokens have zero rows, so only words count.
 */
function tinyModel(vocabularySize: number, dimensions: number): Uint8Array {
  const table = new Float32Array(vocabularySize * dimensions);
  // A fixed pseudo-random table (no Math.random: the same model every run).
  let seed = 12345;
  for (let token = 5; token < vocabularySize; token++) {
    for (let d = 0; d < dimensions; d++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      table[token * dimensions + d] = seed / 0xffffffff - 0.5;
    }
  }
  const INT64 = 7;
  const FLOAT = 1;
  const initializer = message([
    ...[vocabularySize, dimensions].map((dim) => varintField(1, dim)),
    varintField(2, FLOAT),
    stringField(8, 'embeddings'),
    bytesField(9, new Uint8Array(table.buffer)),
  ]);
  const gather = message([stringField(1, 'embeddings'), stringField(1, 'input_ids'), stringField(2, 'tokens'), stringField(3, 'gather'), stringField(4, 'Gather')]);
  const reduce = message([
    stringField(1, 'tokens'),
    stringField(2, 'last_hidden_state'),
    stringField(3, 'sum'),
    stringField(4, 'ReduceSum'),
    bytesField(5, message([stringField(1, 'axes'), varintField(20, 7), varintField(8, 1)])),
    bytesField(5, message([stringField(1, 'keepdims'), varintField(20, 2), varintField(3, 1)])),
  ]);
  const tensorValue = (name: string, elemType: number, dims: Array<number | string>) =>
    message([
      stringField(1, name),
      bytesField(2, message([bytesField(1, message([varintField(1, elemType), bytesField(2, message(dims.map((dim) => bytesField(1, message([typeof dim === 'number' ? varintField(1, dim) : stringField(2, dim)])))))]))])),
    ]);
  const graph = message([
    bytesField(1, gather),
    bytesField(1, reduce),
    stringField(2, 'tiny-bert'),
    bytesField(5, initializer),
    ...['input_ids', 'attention_mask', 'token_type_ids'].map((name) => bytesField(11, tensorValue(name, INT64, ['batch', 'sequence']))),
    bytesField(12, tensorValue('last_hidden_state', FLOAT, ['batch', 1, dimensions])),
  ]);
  return message([
    varintField(1, 7),
    stringField(2, 'engram-test'),
    bytesField(7, graph),
    bytesField(8, message([stringField(1, ''), varintField(2, 11)])),
  ]);
}

function varint(value: number): number[] {
  const out: number[] = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const varintField = (field: number, value: number): Uint8Array => Uint8Array.from([...varint(field << 3), ...varint(value)]);
const bytesField = (field: number, bytes: Uint8Array): Uint8Array => Uint8Array.from([...varint((field << 3) | 2), ...varint(bytes.length), ...bytes]);
const stringField = (field: number, text: string): Uint8Array => bytesField(field, new TextEncoder().encode(text));

function message(fields: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(fields.reduce((n, field) => n + field.length, 0));
  let at = 0;
  for (const field of fields) {
    out.set(field, at);
    at += field.length;
  }
  return out;
}
