// The lexical recall index as the prompt hook's fallback uses it: open the file, query it, close
// it, at 1,000, 10,000 and 100,000 memories. Memories are made of a Zipf-distributed vocabulary
// whose 100 commonest words are left out, as stop words are (a few words in many memories, most
// in few), so some query words have long postings, as real ones do. Sizes are interleaved round
// by round, so a noisy machine slows them alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBm25, type LexicalDoc } from '../src/indexes/bm25.js';
import { LexicalIndexFile, serializeLexicalIndex } from '../src/indexes/lexical-index.js';
import { queryWords } from '../src/indexes/query-words.js';
import { seededRandom as rng } from './seeded-random.js';

export interface RecallIndexBenchResult {
  size: number;
  fileBytes: number;
  medianMs: number;
  p95Ms: number;
}


/** Zipf ranks taken by stop words, which the analyser drops. */
const STOP_RANKS = 100;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'zi', 'pa', 'do', 'gu', 'be', 'fi', 'ho', 'ja'];

/** A vocabulary of distinct pseudo-words, and a Zipf (s = 1) sampler over it. */
export function vocabulary(size: number, random: () => number): () => string {
  const words: string[] = [];
  for (let i = 0; words.length < size; i++) {
    let n = i;
    let w = '';
    do {
      w += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0);
    words.push(`${w}x`);
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let r = 1; r <= size; r++) cumulative.push((total += 1 / (r + STOP_RANKS)));
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
}

export function memories(size: number, seed: number): LexicalDoc[] {
  const random = rng(seed);
  const word = vocabulary(30_000, random);
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  return Array.from({ length: size }, (_, i) => ({
    id: `m${i}`,
    file: `memory-${i}.md`,
    name: text(3 + Math.floor(random() * 4)),
    description: text(8 + Math.floor(random() * 12)),
    body: text(20 + Math.floor(random() * 60)),
    entities: random() < 0.5 ? [text(1), text(1)] : [],
    confidence: 0.8,
    lastReinforced: '2026-11-01T00:00:00.000Z',
    halfLifeDays: 90,
  }));
}

export function recallIndexBench(scratch: string, sizes: readonly number[], rounds = 40): RecallIndexBenchResult[] {
  const random = rng(7);
  const word = vocabulary(30_000, random);
  // Prompts of 4 to 12 words from the same distribution: some words common, most rare.
  const prompts = Array.from({ length: 64 }, () => Array.from({ length: 4 + Math.floor(random() * 9) }, word).join(' '));
  const files = sizes.map((size) => {
    const path = join(scratch, `recall-${size}.bm25`);
    const text = serializeLexicalIndex(buildBm25(memories(size, size)), { dir: 'bench', project: '/bench', asOf: '2026-12-01T00:00:00.000Z' });
    writeFileSync(path, text);
    return { size, path, bytes: Buffer.byteLength(text), times: [] as number[] };
  });
  for (let round = 0; round < rounds + 2; round++) {
    for (const file of files) {
      const prompt = prompts[(round * 7) % prompts.length]!;
      const t = performance.now();
      // What the hook does: read the file, open it, ask.
      const index = LexicalIndexFile.open(file.path);
      index.search(queryWords(prompt), { limit: 3 });
      index.close();
      const ms = performance.now() - t;
      if (round >= 2) file.times.push(ms);
    }
  }
  return files.map(({ size, bytes, times }) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { size, fileBytes: bytes, medianMs: sorted[Math.floor(sorted.length / 2)]!, p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! };
  });
}
