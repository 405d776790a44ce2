// Recall on real conversations: LoCoMo's dev half (locomo-set.ts), every turn a memory, every
// question ranked by the very recall() the CLI runs (`engram query --all --limit 10`: the
// ranking, no gate) over each conversation's lexical index file and, when an embedder is given,
// its vectors. Parameters are cross-validated leave-one-conversation-out: each conversation is
// scored with the parameters that did best on the other four, and the figures printed are those
// out-of-fold scores. Then the parameters chosen on all five, for recall-settings.ts and bm25.ts.
import { buildBm25, DEFAULT_BM25, type Bm25Params, type LexicalDoc } from '../src/indexes/bm25.js';
import { cosine, type Embedder } from '../src/indexes/embedder.js';
import { LexicalIndexFile, serializeLexicalIndex } from '../src/indexes/lexical-index.js';
import { recall, type RecallSignal } from '../src/recall/recall.js';
import { cardOf } from '../src/recall/memory-card.js';
import { RECALL_SETTINGS, type RecallSettings } from '../src/recall/recall-settings.js';
import type { LocomoConversation } from './locomo-set.js';

const NOW = new Date('2026-12-01T00:00:00.000Z');
/** `engram query --all --limit 10`. */
const LIMIT = 10;
/** The vector list's length (the recall pipeline's candidates). */
const VECTOR_CANDIDATES = 20;

/** Everything a run varies. */
export interface LocomoSetting {
  readonly bm25: Bm25Params;
  /** Neighbouring turns of the same session indexed as context: how many each side (0: none). */
  readonly window: number;
  readonly method: RecallSettings['method'];
  readonly vector: number;
}

interface Counts {
  n: number;
  hit1: number;
  hit5: number;
  rr: number;
}

type PerConversation = ReadonlyMap<string, Counts>;

const zero = (): Counts => ({ n: 0, hit1: 0, hit5: 0, rr: 0 });
const add = (a: Counts, b: Counts): Counts => ({ n: a.n + b.n, hit1: a.hit1 + b.hit1, hit5: a.hit5 + b.hit5, rr: a.rr + b.rr });
/** What the grid maximises: hit@5 and MRR, equally. */
const objective = (c: Counts) => (c.n === 0 ? 0 : (c.hit5 + c.rr) / c.n);

export interface LocomoEval {
  readonly lines: string[];
  /** The setting that did best on every conversation given (what to ship). */
  readonly chosen: LocomoSetting;
}

/**
 * The evaluation. `vectors`: the embedder whose model the vector weights are chosen for
 * (undefined: lexical only); its vectors are computed once for every turn and question.
 */
export async function runLocomoEval(conversations: readonly LocomoConversation[], embedder: Embedder | undefined, log: (line: string) => void = () => undefined): Promise<LocomoEval> {
  const lines: string[] = [];
  const questions = conversations.reduce((n, c) => n + c.questions.length, 0);
  const memories = conversations.reduce((n, c) => n + c.memories.length, 0);
  lines.push(`LoCoMo: ${conversations.map((c) => c.id).join(', ')}: ${memories} turns as memories, ${questions} questions with evidence (category 5 left out); ranking as engram query --all --limit ${LIMIT}`);

  const vectorLists = new Map<string, Array<{ id: string; score: number }>>();
  if (embedder) {
    log(`embedding ${memories} turns and ${questions} questions with ${embedder.model}…`);
    for (const c of conversations) {
      const memoryVectors = await embedder.embed(c.memories.map((m) => m.text));
      const questionVectors = await embedder.embed(c.questions.map((q) => q.text));
      c.questions.forEach((q, i) => {
        const list = c.memories
          .map((m, j) => ({ id: m.doc.id, score: cosine(questionVectors[i]!, memoryVectors[j]!) }))
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
          .slice(0, VECTOR_CANDIDATES);
        vectorLists.set(`${c.id}\n${q.text}`, list);
      });
    }
  }

  const indexCache = new Map<string, LexicalIndexFile>();
  const indexOf = (c: LocomoConversation, bm25: Bm25Params, window: number) => {
    const key = `${c.id}\n${JSON.stringify(bm25)}\n${window}`;
    let file = indexCache.get(key);
    if (!file) {
      const docs = window > 0 ? withNeighbours(c, window) : c.memories.map((m) => m.doc);
      file = LexicalIndexFile.fromBytes(Buffer.from(serializeLexicalIndex(buildBm25(docs, bm25), { dir: c.id, project: '', asOf: NOW.toISOString() })));
      indexCache.set(key, file);
    }
    return file;
  };

  const runs = new Map<string, PerConversation>();
  const run = async (setting: LocomoSetting): Promise<PerConversation> => {
    const key = JSON.stringify(setting);
    const known = runs.get(key);
    if (known) return known;
    const out = new Map<string, Counts>();
    const settings: RecallSettings = { ...RECALL_SETTINGS, method: setting.method, k: 60, weights: { bm25: 1, vector: setting.vector, graph: 0 } };
    for (const c of conversations) {
      const index = indexOf(c, setting.bm25, setting.window);
      const cards = new Map(index.memories().map((m) => [m.id, cardOf(m, c.id)]));
      const vectorSignal: RecallSignal = { name: 'vector', rank: (question) => vectorLists.get(`${c.id}\n${question.text}`) ?? [] };
      const sources = { indexes: [{ index, dir: c.id }], signals: embedder ? [vectorSignal] : [], card: (id: string) => cards.get(id) };
      const counts = zero();
      for (const q of c.questions) {
        const { memories: ranked } = await recall(sources, { text: q.text, project: '', now: NOW, all: true, limit: LIMIT }, settings);
        counts.n++;
        const at = ranked.findIndex((m) => q.relevant.includes(m.id));
        if (at === 0) counts.hit1++;
        if (at >= 0 && at < 5) counts.hit5++;
        if (at >= 0) counts.rr += 1 / (at + 1);
      }
      out.set(c.id, counts);
    }
    runs.set(key, out);
    return out;
  };

  /** Out of fold: each conversation scored with the grid's best on the others. */
  const crossValidated = async (grid: readonly LocomoSetting[]): Promise<{ counts: Counts; picks: LocomoSetting[] }> => {
    const results = [];
    for (const setting of grid) results.push({ setting, per: await run(setting) });
    let counts = zero();
    const picks: LocomoSetting[] = [];
    for (const held of conversations) {
      const trainOf = (per: PerConversation) => conversations.filter((c) => c.id !== held.id).reduce((sum, c) => add(sum, per.get(c.id)!), zero());
      const best = [...results].sort((a, b) => objective(trainOf(b.per)) - objective(trainOf(a.per)))[0]!;
      picks.push(best.setting);
      counts = add(counts, best.per.get(held.id)!);
    }
    return { counts, picks };
  };
  const bestOnAll = async (grid: readonly LocomoSetting[]) => {
    let best: { setting: LocomoSetting; total: Counts } | undefined;
    for (const setting of grid) {
      const total = [...(await run(setting)).values()].reduce(add, zero());
      if (!best || objective(total) > objective(best.total)) best = { setting, total };
    }
    return best!;
  };

  const row = (name: string, c: Counts, note = '') =>
    `  ${name.padEnd(58)} ${pct(c.hit1 / c.n)} ${pct(c.hit5 / c.n)} ${(c.rr / c.n).toFixed(3).padStart(7)}${note ? `   ${note}` : ''}`;
  lines.push('', `  ${'out of fold (leave one conversation out)'.padEnd(58)} ${'hit@1'.padStart(6)} ${'hit@5'.padStart(6)} ${'MRR'.padStart(7)}`);

  // Plain BM25 over speaker + text, no stemming, no field weights: the bar to clear.
  lines.push(row('plain BM25 (speaker + text, no stemming)', plainBm25(conversations)));

  const lexical = (bm25: Bm25Params, window = 0): LocomoSetting => ({ bm25, window, method: 'max', vector: 0 });
  const today = lexical(DEFAULT_BM25);
  lines.push(row('BM25F, stemmed, the old field weights (3/2/2/1)', [...(await run(today)).values()].reduce(add, zero())));

  log('field weights…');
  const fieldGrid: LocomoSetting[] = [];
  for (const name of [0, 0.5, 1, 2])
    for (const description of [0, 1, 2])
      for (const k1 of [0.6, 0.9, 1.2, 1.6])
        for (const b of [0.3, 0.5, 0.75, 0.9]) fieldGrid.push(lexical({ k1, b, fieldWeights: { name, description, entities: 2, body: 1 } }));
  const fields = await crossValidated(fieldGrid);
  lines.push(row('BM25F, stemmed, field weights + k1, b chosen per fold', fields.counts, picksNote(fields.picks, (s) => describeBm25(s.bm25))));
  const lexicalChoice = await bestOnAll(fieldGrid);

  log('neighbouring turns…');
  const contextGrid = fieldGrid.length > 0 ? [] as LocomoSetting[] : [];
  for (const window of [1, 2])
    for (const weight of [0.1, 0.2, 0.35, 0.5])
      contextGrid.push({ ...lexicalChoice.setting, window, bm25: { ...lexicalChoice.setting.bm25, fieldWeights: { ...lexicalChoice.setting.bm25.fieldWeights, context: weight } } });
  const context = await crossValidated([lexicalChoice.setting, ...contextGrid]);
  lines.push(row('  + neighbouring turns as context (window, weight per fold)', context.counts, picksNote(context.picks, (s) => `±${s.window} ${s.bm25.fieldWeights.context ?? 0}`)));

  let chosen = lexicalChoice.setting;
  if (embedder) {
    log('fusion…');
    const base = lexicalChoice.setting;
    const vectorsAlone: LocomoSetting = { ...base, method: 'max', vector: 1, bm25: { ...base.bm25, fieldWeights: { name: 0, description: 0, entities: 0, body: 0 } } };
    lines.push(row(`${embedder.model} alone`, [...(await run(vectorsAlone)).values()].reduce(add, zero())));
    lines.push(row('plain RRF (k 60), BM25F + vectors', [...(await run({ ...base, method: 'rrf', vector: 1 })).values()].reduce(add, zero())));
    const weights = [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1];
    for (const method of ['rrf', 'linear', 'max'] as const) {
      const cv = await crossValidated(weights.map((vector) => ({ ...base, method, vector })));
      lines.push(row(`${method === 'rrf' ? 'weighted RRF' : method === 'linear' ? 'min-max linear' : 'max-norm linear'}, vector weight per fold`, cv.counts, picksNote(cv.picks, (s) => String(s.vector))));
    }
    const fusionGrid = (['rrf', 'linear', 'max'] as const).flatMap((method) => weights.map((vector) => ({ ...base, method, vector })));
    const cv = await crossValidated(fusionGrid);
    lines.push(row('chosen: fusion and vector weight per fold', cv.counts, picksNote(cv.picks, (s) => `${s.method} ${s.vector}`)));
    chosen = (await bestOnAll(fusionGrid)).setting;
  }
  lines.push('', `chosen on all ${conversations.length}: ${describeBm25(chosen.bm25)}; fusion ${chosen.method}, vector ${chosen.vector}${embedder ? ` (${embedder.model})` : ''}`);
  return { lines, chosen };
}

/** Each turn indexed with the turns `window` either side of it in its session, as context. */
function withNeighbours(c: LocomoConversation, window: number): LexicalDoc[] {
  return c.memories.map((m) => {
    const around = c.memories.filter((o) => o.session === m.session && o !== m && Math.abs(o.turn - m.turn) <= window);
    return { ...m.doc, context: around.map((o) => o.doc.body).join('\n') };
  });
}

/** BM25 (k1 1.2, b 0.75) over speaker + text, lower-cased words, no stemming: the issue's baseline. */
function plainBm25(conversations: readonly LocomoConversation[]): Counts {
  let counts = zero();
  const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  for (const c of conversations) {
    const docs = c.memories.map((m) => words(m.doc.body));
    const avgdl = docs.reduce((n, d) => n + d.length, 0) / docs.length;
    const df = new Map<string, number>();
    for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
    for (const q of c.questions) {
      const terms = [...new Set(words(q.text))];
      const scored = docs
        .map((d, i) => {
          let score = 0;
          for (const t of terms) {
            const tf = d.filter((w) => w === t).length;
            if (tf === 0) continue;
            const n = df.get(t)!;
            score += Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * ((tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avgdl)));
          }
          return { id: c.memories[i]!.doc.id, score };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, LIMIT);
      const at = scored.findIndex((x) => q.relevant.includes(x.id));
      counts = add(counts, { n: 1, hit1: at === 0 ? 1 : 0, hit5: at >= 0 && at < 5 ? 1 : 0, rr: at >= 0 ? 1 / (at + 1) : 0 });
    }
  }
  return counts;
}

const pct = (x: number) => (100 * x).toFixed(1).padStart(6);
const describeBm25 = (p: Bm25Params) => {
  const w = p.fieldWeights;
  return `name ${w.name}, description ${w.description}, body ${w.body}${w.context ? `, context ${w.context}` : ''}, k1 ${p.k1}, b ${p.b}`;
};
function picksNote(picks: readonly LocomoSetting[], say: (s: LocomoSetting) => string): string {
  return `folds: ${picks.map(say).join(' | ')}`;
}
