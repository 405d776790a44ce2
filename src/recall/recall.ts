import { DEFAULT_MATCH_RULE, requiredShared, type MatchRule } from '../indexes/bm25.js';
import { MAX_LEFT_OUT } from '../events/recall-events.js';
import { DEFAULT_CUT, type CutOptions, type Fused, type SignalList } from './fusion.js';
import { fuseSignals, VECTOR_SIGNAL } from './fuse-signals.js';
import { gateRecall, type RankedCandidate } from './gate-recall.js';
import { RECALL_SETTINGS, type RecallSettings } from './recall-settings.js';
import type { RecallIndex } from './recall-indexes.js';
import { cardOf, type MemoryCard } from './memory-card.js';
import { canRecall, queryWords } from '../indexes/query-words.js';

/**
 * The recall pipeline of DESIGN.md "Recall", one function for the hook's fallback, the worker,
 * `engram query`, MCP search, the viewer and the evaluation, in two steps. Ranking
 * (rankMemories): one ranked list per signal (BM25 always; vectors and graph when the caller has
 * them), fused. Gating (gate-recall.ts, skipped with `all`): fewer than MIN_QUERY_WORDS content
 * words, nothing; then shared words or an entity or a vector floor, strength, a share of the
 * best, top few, and what the session was already given left out. Hook-safe: it imports the lexical side only; other signals come in as functions.
 */

/** How BM25's list is drawn; the fusion and the cut are RecallSettings (recall-settings.ts). */
export interface LexicalOptions {
  /** How many of the prompt's words a memory must share to pass the gate. Default DEFAULT_MATCH_RULE. */
  readonly rule?: MatchRule;
  /** How many memories each signal's list holds before fusion. Default 20. */
  readonly candidates?: number;
}

const DEFAULT_CANDIDATES = 20;

/** What a prompt is, for a signal. */
export interface RecallQuestion {
  readonly text: string;
  /** Its content words (queryWords). */
  readonly words: readonly string[];
  /** The project it was typed in ('' for none: global memories only). */
  readonly project: string;
}

/** One ranked item of a signal beyond BM25; `detail` is printed after the signal's name (`graph:postgres`). */
export interface SignalItem {
  readonly id: string;
  readonly score: number;
  readonly detail?: string;
}

/** A signal beside BM25: vectors, the graph, anything that ranks memories by id, best first. */
export interface RecallSignal {
  /** What the printed line names when it fired: `vector`, `graph`. */
  readonly name: string;
  rank(question: RecallQuestion, limit: number): Promise<readonly SignalItem[]> | readonly SignalItem[];
}

export interface RecallSources {
  /** The project's and the global directory's lexical indexes (recall-indexes.ts). */
  readonly indexes: readonly RecallIndex[];
  /** Default none: BM25 alone, as in the hook's fallback. */
  readonly signals?: readonly RecallSignal[];
  /**
   * A memory by id, for one another signal found and BM25 did not. Default: none, and such a
   * memory is dropped. Either way only memories the indexes hold are ever returned: the indexes
   * hold active memories only, so a stale vector row or graph entry cannot bring back a
   * provisional, superseded or archived one.
   */
  card?(id: string): MemoryCard | undefined;
}

export interface RecallRequest {
  readonly text: string;
  readonly project: string;
  /** Strength is decayed to this time (the injected clock). */
  readonly now: Date;
  /** Memories already in the session's context: never returned again. Default none. */
  readonly exclude?: ReadonlySet<string>;
  /** The whole fused ranking: no cut, no exclusion (`engram query --all`). Default false. */
  readonly all?: boolean;
  /** At most this many. Default the settings' cut limit (3), or every one with `all`. */
  readonly limit?: number;
}

export interface RecalledMemory {
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly description: string;
  /** Fused score × strength. */
  readonly score: number;
  /** The signals that found it, each with its detail when it has one: `bm25`, `vector`, `graph:postgres`. */
  readonly signals: readonly string[];
}

/** A candidate the cut did not recall: why it was left out (the viewer's recall traces show it). */
export interface LeftOutMemory {
  readonly id: string;
  /** Fused score × strength. */
  readonly score: number;
  readonly signals: readonly string[];
  /** `below-cut`: under the cut's share of the best; `past-limit`: past the top few; `already-recalled`: earlier in the session. */
  readonly why: 'below-cut' | 'past-limit' | 'already-recalled';
}

export interface RecallResult {
  readonly memories: RecalledMemory[];
  /** The best candidates left out (at most MAX_LEFT_OUT), best first; empty with `all`. */
  readonly leftOut: LeftOutMemory[];
  /** Signals that failed and were left out (the rest still answered), for a log line. */
  readonly problems: string[];
}

/** What the ranking found for a prompt: every candidate, best first, and what shows them. */
export interface Ranking {
  readonly ranked: RankedCandidate[];
  /** Every ranked memory's card. */
  readonly cards: ReadonlyMap<string, MemoryCard>;
  /** `signal\nid` → the detail printed after the signal's name. */
  readonly details: ReadonlyMap<string, string>;
  /** Signals that failed and were left out (the rest still answered). */
  readonly problems: string[];
}

/**
 * The ranking (DESIGN.md "Recall"): which memories are most relevant to `question`, in order.
 * Never empty while a memory shares a content word with it or a signal has candidates: BM25 takes
 * any memory sharing one word (how many it shares is kept, for the gate), each other signal its
 * own list, fused as `settings` say. The one ranking every caller uses: the prompt hook's fallback
 * and the worker (then gated), `engram query`, MCP search, the viewer and the evaluation.
 */
export async function rankMemories(sources: RecallSources, question: RecallQuestion, settings: RecallSettings = RECALL_SETTINGS, candidates = DEFAULT_CANDIDATES): Promise<Ranking> {
  const cards = new Map<string, MemoryCard>();
  const shared = new Map<string, number>();
  // Every other signal is asked first, BM25 ranked while they answer: the vector signal's
  // embedding runs in the model's own thread, so BM25 and the graph cost the prompt nothing
  // beside it. A signal weighed 0 was measured not to help: it is not asked (no embedding for nothing).
  const asked = (sources.signals ?? []).filter((signal) => (settings.weights[signal.name] ?? 1) > 0).map((signal) => ({ signal, answer: askSignal(signal, question, candidates) }));
  const lists: SignalList[] = [lexicalList(sources.indexes, question.words, candidates, cards, shared)];
  const details = new Map<string, string>();
  const cosines = new Map<string, number>();
  const problems: string[] = [];
  for (const { signal, answer } of asked) {
    const { items, error } = await answer;
    if (error !== undefined) {
      problems.push(`${signal.name}: ${error}`);
      continue;
    }
    const known = items.filter((item) => {
      if (!cards.has(item.id)) {
        const card = sources.card?.(item.id);
        if (!card) return false;
        cards.set(item.id, card);
      }
      return true;
    });
    for (const item of known) if (item.detail) details.set(`${signal.name}\n${item.id}`, item.detail);
    if (signal.name === VECTOR_SIGNAL) for (const item of known) cosines.set(item.id, item.score);
    lists.push({ signal: signal.name, items: known.slice(0, candidates) });
  }
  const ranked = fuseSignals(lists, settings).map((item): RankedCandidate => {
    const cosine = cosines.get(item.id);
    return { ...item, shared: shared.get(item.id) ?? 0, ...(cosine === undefined ? {} : { cosine }) };
  });
  return { ranked, cards, details, problems };
}

/** A signal's answer, its failure caught at once (a rejection left waiting while BM25 runs would be reported unhandled). */
function askSignal(signal: RecallSignal, question: RecallQuestion, limit: number): Promise<{ items: readonly SignalItem[]; error?: string }> {
  const failed = (err: unknown) => ({ items: [], error: err instanceof Error ? err.message : String(err) });
  try {
    return Promise.resolve(signal.rank(question, limit)).then((items) => ({ items }), failed);
  } catch (err) {
    return Promise.resolve(failed(err));
  }
}

/**
 * The recall pipeline: the ranking, then (unless `all`) the gate. `settings` default
 * RECALL_SETTINGS, the evaluation's choice (its fusion, the vectors' floor when nothing else
 * fired, the cut); `lexical` default DEFAULT_MATCH_RULE (the gate's shared words) and 20
 * candidates a list.
 */
export async function recall(sources: RecallSources, request: RecallRequest, settings: RecallSettings = RECALL_SETTINGS, lexical: LexicalOptions = {}): Promise<RecallResult> {
  const candidates = Math.max(lexical.candidates ?? DEFAULT_CANDIDATES, request.all ? (request.limit ?? 0) : 0);
  const words = queryWords(request.text);
  // The ranking answers any prompt with a content word; the hook's gate wants two.
  if (words.length === 0 || (!request.all && !canRecall(words))) return { memories: [], leftOut: [], problems: [] };
  const question: RecallQuestion = { text: request.text, words, project: request.project };
  const { ranked, cards, details, problems } = await rankMemories(sources, question, settings, candidates);
  const strengthOf = (id: string) => strength(cards.get(id)!, request.now);
  const exponent = settings.cut.strengthExponent;
  const cut = request.all
    ? ranked.map((item) => ({ ...item, score: item.score * strengthOf(item.id) ** exponent })).sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
    : gateRecall(ranked, strengthOf, { need: requiredShared(words.length, lexical.rule ?? DEFAULT_MATCH_RULE), vectorAloneFloor: settings.vectorAloneFloor, cut: settings.cut }).filter(
        (item) => !request.exclude?.has(item.id),
      );
  const signalsOf = (item: { id: string; signals: readonly string[] }) =>
    item.signals.map((name) => {
      const detail = details.get(`${name}\n${item.id}`);
      return detail ? `${name}:${detail}` : name;
    });
  const memories = cut.slice(0, request.limit ?? cut.length).map((item) => {
    const card = cards.get(item.id)!;
    return { id: item.id, file: card.file, name: card.name, description: card.description, score: item.score, signals: signalsOf(item) };
  });
  const leftOut = request.all ? [] : leftOutOf(ranked, strengthOf, settings.cut, new Set(memories.map((m) => m.id)), request.exclude).map((item) => ({ ...item, signals: signalsOf(item) }));
  return { memories, leftOut, problems };
}

/**
 * The best candidates that were not recalled, and why: scored as the cut scores them, and
 * named by the first rule that dropped them (already given in the session, under the share of
 * the best or not past the gate, past the top few).
 */
function leftOutOf(fused: readonly Fused[], strengthOf: (id: string) => number, cut: CutOptions, kept: ReadonlySet<string>, exclude: ReadonlySet<string> | undefined) {
  const ratio = cut.ratio ?? DEFAULT_CUT.ratio;
  const exponent = cut.strengthExponent ?? DEFAULT_CUT.strengthExponent;
  const weighed = fused
    .map((item) => {
      const strength = strengthOf(item.id);
      return { id: item.id, signals: item.signals, score: strength > 0 ? item.score * strength ** exponent : 0 };
    })
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  const best = kept.size > 0 ? (weighed.find((item) => kept.has(item.id))?.score ?? 0) : Number.POSITIVE_INFINITY;
  return weighed
    .filter((item) => !kept.has(item.id))
    .slice(0, MAX_LEFT_OUT)
    .map((item) => ({
      id: item.id,
      score: item.score,
      signals: item.signals,
      why: exclude?.has(item.id) ? ('already-recalled' as const) : item.score <= 0 || item.score < ratio * best ? ('below-cut' as const) : ('past-limit' as const),
    }));
}

/** BM25 over each index with its own statistics, as one list, best first, ties by id; any memory sharing a word. */
function lexicalList(indexes: readonly RecallIndex[], words: readonly string[], candidates: number, cards: Map<string, MemoryCard>, shared: Map<string, number>): SignalList {
  const hits: Array<{ id: string; score: number }> = [];
  for (const { index, dir } of indexes) {
    for (const match of index.search(words, { limit: candidates })) {
      cards.set(match.id, cardOf(match, dir));
      shared.set(match.id, match.shared);
      hits.push({ id: match.id, score: match.score });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { signal: 'bm25', items: hits.slice(0, candidates) };
}

const DAY_MS = 86_400_000;

/** confidence × 2^(−days since last reinforced / half-life); an undated or never-decaying memory keeps its confidence (DESIGN.md "Scores"). */
function strength(card: MemoryCard, now: Date): number {
  const since = Date.parse(card.lastReinforced);
  if (card.halfLifeDays === null || Number.isNaN(since)) return card.confidence;
  const days = Math.max(0, (now.getTime() - since) / DAY_MS);
  return card.confidence * 2 ** (-days / card.halfLifeDays);
}
