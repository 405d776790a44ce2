import { analyze } from './query-words.js';

/**
 * BM25 over memories, with per-field weights (a simplified BM25F: a word's weighted count is the
 * sum over fields of the field's weight times its count there, and so is the document's
 * length). Pure, no imports but the analyser, so the hook's fallback can rank with it.
 *
 * Each posting holds its whole contribution to a score (IDF times the saturated term
 * frequency), computed when the index is built, so a query only adds numbers. Contributions are
 * kept in thousandths, as integers: the index file and the index in memory rank alike, and a
 * rebuild writes the same bytes.
 */

/** What the lexical index reads of one memory. */
export interface LexicalDoc {
  readonly id: string;
  /** Its file name in its memory directory. */
  readonly file: string;
  readonly name: string;
  readonly description: string;
  readonly body: string;
  /** Who and what it is about: the entities its graph names, keywords, aliases. */
  readonly entities: readonly string[];
  /**
   * Text around it that is not its own (the neighbouring memories of its session), indexed with
   * its own weight; none by default. The evaluation tries it (scripts/eval-locomo.ts).
   */
  readonly context?: string;
  /** For strength at query time (DESIGN.md "Scores"). */
  readonly confidence: number;
  readonly lastReinforced: string;
  /** null: it never decays (an idea). */
  readonly halfLifeDays: number | null;
}

export interface FieldWeights {
  readonly name: number;
  readonly description: number;
  readonly entities: number;
  readonly body: number;
  /** LexicalDoc.context's weight; default 0. */
  readonly context?: number;
}

export interface Bm25Params {
  /** Term-frequency saturation. Default 1.2. */
  readonly k1: number;
  /** Length normalisation, 0 (none) to 1 (full). Default 0.75. */
  readonly b: number;
  /**
   * How much a word counts in each field. Default name 2, description 1, entities 2, body 1: a
   * memory's name says what it is about; its description and body say much else besides.
   */
  readonly fieldWeights: FieldWeights;
}

/**
 * Chosen on LoCoMo's dev half (`npm run eval -- --locomo PATH`, scripts/eval-locomo.ts), ranking
 * only, over 760 questions: k1 0.9 and b 0.3 (less length normalisation: a long turn is not less
 * about its words) with name 2 gave hit@5 64.7, MRR 0.512 against 64.5 / 0.507 for the old
 * 1.2 / 0.75 and 3/2/2/1. Cross-validated, every fold picked k1 0.9 (one 1.6), b 0.3 (one 0.5) and
 * name 2. Those folds also picked description 0, since there the description repeats the body
 * word for word (64.7 → 65.0); engram's own memories carry a summary there, so it keeps weight 1.
 * Stemming gave far more than any weight (plain BM25 50.9 → 64.3).
 */
export const DEFAULT_BM25: Bm25Params = Object.freeze({
  k1: 0.9,
  b: 0.3,
  fieldWeights: Object.freeze({ name: 2, description: 1, entities: 2, body: 1 }),
});

/** One document's share of a word's score, in thousandths. */
export type Posting = readonly [doc: number, score: number];

export interface Bm25Index {
  readonly params: Bm25Params;
  /** The documents, sorted by id; postings refer to them by position. */
  readonly docs: readonly LexicalDoc[];
  /** Every word with its postings, words in UTF-8 byte order, postings by document. */
  readonly terms: ReadonlyArray<readonly [term: string, postings: readonly Posting[]]>;
}

export function buildBm25(input: readonly LexicalDoc[], params: Bm25Params = DEFAULT_BM25): Bm25Index {
  const docs = [...input].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const w = params.fieldWeights;
  const counts: Array<Map<string, number>> = [];
  const lengths: number[] = [];
  for (const doc of docs) {
    const tf = new Map<string, number>();
    let length = 0;
    const add = (text: string, weight: number) => {
      if (weight <= 0) return;
      for (const word of analyze(text)) {
        tf.set(word, (tf.get(word) ?? 0) + weight);
        length += weight;
      }
    };
    add(doc.name, w.name);
    add(doc.description, w.description);
    add(doc.entities.join('\n'), w.entities);
    add(doc.body, w.body);
    if (doc.context) add(doc.context, w.context ?? 0);
    counts.push(tf);
    lengths.push(length);
  }
  const n = docs.length;
  const avgdl = n === 0 ? 1 : lengths.reduce((a, b) => a + b, 0) / n || 1;
  const byTerm = new Map<string, Array<[number, number]>>();
  counts.forEach((tf, doc) => {
    for (const [term, count] of tf) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      list.push([doc, count]);
    }
  });
  const terms = [...byTerm]
    .map(([term, list]) => {
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      const postings = list.map(([doc, tf]): Posting => {
        const norm = params.k1 * (1 - params.b + (params.b * lengths[doc]!) / avgdl);
        return [doc, Math.round((1000 * idf * tf * (params.k1 + 1)) / (tf + norm))];
      });
      return { term, postings, bytes: Buffer.from(term) };
    })
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map(({ term, postings }) => [term, postings] as const);
  return { params, docs, terms };
}

/**
 * How many of a prompt's words a memory must share for the prompt hook to recall it lexically:
 * the gate's rule (gate-recall.ts), never the ranking's. Ranking takes every memory that shares
 * one content word, so `engram query --all`, MCP search and the evaluation are never empty while
 * a memory shares a word.
 */
export interface MatchRule {
  /**
   * Default 3 (the seed said 2): chosen on the evaluation set's dev half, where 2 let one in nine
   * questions that nothing answers recall something, and 3 none, for 6 points of hit@3. A prompt
   * of fewer words must share all of them (see requiredShared).
   */
  readonly minShared: number;
  /** For long prompts, this share of their words. Default 0.15. */
  readonly shareOfWords: number;
  /** Never more than this many. Default 4. */
  readonly maxShared: number;
}

export const DEFAULT_MATCH_RULE: MatchRule = Object.freeze({ minShared: 3, shareOfWords: 0.15, maxShared: 4 });

/**
 * DESIGN.md "Recall": ≥ minShared shared terms, 15 % of terms for long prompts, capped at 4; and
 * never more than the prompt has, so a prompt all of whose words a memory shares qualifies.
 */
export function requiredShared(queryWordCount: number, rule: MatchRule = DEFAULT_MATCH_RULE): number {
  return Math.min(queryWordCount, rule.maxShared, Math.max(rule.minShared, Math.ceil(rule.shareOfWords * queryWordCount)));
}

/** More than a prompt's distinct words (MAX_QUERY_WORDS) can ever be. */
const SHARED_SPAN = 1024;

export interface LexicalHit {
  /** The document's handle in its index (a position, or an offset in the file). */
  readonly doc: number;
  /** Summed contributions, in thousandths. */
  readonly score: number;
  /** How many of the prompt's words it shares. */
  readonly shared: number;
}

/**
 * Ranks by summed contributions the documents that share at least `minShared` of `words` (default
 * 1: any), best first, ties by handle. `postingsOf` gives a word's postings (none when the index
 * does not have it). Each hit says how many words it shares, for the gate.
 */
export function rankPostings(words: readonly string[], postingsOf: (word: string) => Iterable<Posting>, minShared = 1): LexicalHit[] {
  const need = Math.max(1, minShared);
  // Score and count in one integer (score × SHARED_SPAN + shared): no object per memory touched,
  // which is most of a query's cost when a word is in many memories.
  const acc = new Map<number, number>();
  for (const word of new Set(words)) {
    for (const [doc, score] of postingsOf(word)) acc.set(doc, (acc.get(doc) ?? 0) + score * SHARED_SPAN + 1);
  }
  const hits: LexicalHit[] = [];
  for (const [doc, packed] of acc) {
    const shared = packed % SHARED_SPAN;
    if (shared >= need) hits.push({ doc, score: (packed - shared) / SHARED_SPAN, shared });
  }
  return hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
}
