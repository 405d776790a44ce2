import { EngramError } from '../errors.js';
import { DEFAULT_MATCH_RULE, rankPostings, type Bm25Index, type MatchRule, type Posting } from './bm25.js';

/**
 * The lexical index as one file, made to be queried by a hook process that has just started:
 * it is read as bytes and never parsed whole. A query decodes only the lines of its words and of
 * the memories they hit, so its cost grows with the query, not with the number of memories.
 *
 * Layout, `\n`-separated:
 *   1. a header: JSON (format, formatVersion, where the sections are, the parameters);
 *   2. one line per memory: a JSON array [id, file, name, description, confidence,
 *      lastReinforced, halfLifeDays | null];
 *   3. one line per word, in UTF-8 byte order: `word\tdoc:score,doc:score…`, where doc is the
 *      byte offset of the memory's line in section 2 and score its share in thousandths, both
 *      base 36. Words never hold a tab or a newline (see query-words.ts), so a binary search
 *      over the lines finds a word with O(log words) comparisons of bytes.
 *
 * Hook-safe: Node built-ins only (Buffer), no zod. The header is checked by hand.
 */

export const LEXICAL_INDEX_FORMAT = 'engram-lexical-index';
/** Bump when the layout changes; a reader refuses a file of another formatVersion. */
export const LEXICAL_INDEX_FORMAT_VERSION = 1;
/** Longest description a line keeps: enough for the line of context a hook prints. */
const DESCRIPTION_CHARS = 300;

export interface LexicalIndexHeader {
  readonly format: typeof LEXICAL_INDEX_FORMAT;
  readonly formatVersion: number;
  /** The memory directory, relative to Claude Code's config directory. */
  readonly dir: string;
  /** Its project; '' for the global directory. */
  readonly project: string;
  /** The time of the latest event the index reflects. */
  readonly asOf: string;
  readonly docCount: number;
  /** Bytes of section 2. */
  readonly docsBytes: number;
}

/** Writes an index built by buildBm25 in the layout above. Pure: the same index, the same bytes. */
export function serializeLexicalIndex(index: Bm25Index, where: { dir: string; project: string; asOf: string }): string {
  const offsets: number[] = [];
  let docsBytes = 0;
  const docLines = index.docs.map((doc) => {
    offsets.push(docsBytes);
    const line = `${JSON.stringify([doc.id, doc.file, doc.name, doc.description.slice(0, DESCRIPTION_CHARS), doc.confidence, doc.lastReinforced, doc.halfLifeDays])}\n`;
    docsBytes += Buffer.byteLength(line);
    return line;
  });
  const header: LexicalIndexHeader = {
    format: LEXICAL_INDEX_FORMAT,
    formatVersion: LEXICAL_INDEX_FORMAT_VERSION,
    dir: where.dir,
    project: where.project,
    asOf: where.asOf,
    docCount: index.docs.length,
    docsBytes,
  };
  const termLines = index.terms.map(([term, postings]) => `${term}\t${postings.map(([doc, score]) => `${offsets[doc]!.toString(36)}:${score.toString(36)}`).join(',')}\n`);
  return `${JSON.stringify(header)}\n${docLines.join('')}${termLines.join('')}`;
}

/** A memory the lexical index recalled. */
export interface LexicalMatch {
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly description: string;
  /** BM25, summed over the shared words. */
  readonly score: number;
  /** How many of the prompt's words it shares. */
  readonly shared: number;
  readonly confidence: number;
  readonly lastReinforced: string;
  readonly halfLifeDays: number | null;
}

/** An index file, opened: its header read, the rest left as bytes until a query needs them. */
export class LexicalIndexFile {
  readonly header: LexicalIndexHeader;
  readonly #bytes: Buffer;
  readonly #docsStart: number;
  readonly #termsStart: number;

  /** Throws RECALL_INDEX_INVALID on a file that is not an index of this formatVersion. */
  constructor(bytes: Buffer) {
    const end = bytes.indexOf(10);
    if (end < 0) throw invalid('no header line');
    let header: unknown;
    try {
      header = JSON.parse(bytes.toString('utf8', 0, end));
    } catch (cause) {
      throw invalid('its header is not JSON', cause);
    }
    if (!isHeader(header)) throw invalid(`not an ${LEXICAL_INDEX_FORMAT} of formatVersion ${LEXICAL_INDEX_FORMAT_VERSION}`);
    if (end + 1 + header.docsBytes > bytes.length) throw invalid('it is shorter than its header says');
    this.header = header;
    this.#bytes = bytes;
    this.#docsStart = end + 1;
    this.#termsStart = end + 1 + header.docsBytes;
  }

  /** The memories that share enough of `words` (see MatchRule), best first, at most `limit`. */
  search(words: readonly string[], options: { limit?: number; rule?: MatchRule } = {}): LexicalMatch[] {
    const hits = rankPostings(words, (word) => this.postings(word), options.rule ?? DEFAULT_MATCH_RULE);
    return hits.slice(0, options.limit ?? hits.length).map((hit) => {
      const [id, file, name, description, confidence, lastReinforced, halfLifeDays] = this.#doc(hit.doc);
      return { id, file, name, description, score: hit.score / 1000, shared: hit.shared, confidence, lastReinforced, halfLifeDays };
    });
  }

  /** A word's postings, by its memories' offsets; none when the index does not have it. */
  postings(word: string): Posting[] {
    const line = this.#find(Buffer.from(word));
    if (!line) return [];
    const text = this.#bytes.toString('latin1', line.tab + 1, line.end);
    return text.split(',').map((pair) => {
      const colon = pair.indexOf(':');
      return [parseInt(pair.slice(0, colon), 36), parseInt(pair.slice(colon + 1), 36)] as const;
    });
  }

  #find(word: Buffer): { tab: number; end: number } | undefined {
    const bytes = this.#bytes;
    let lo = this.#termsStart;
    let hi = bytes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = Math.max(lo, bytes.lastIndexOf(10, mid - 1) + 1);
      let end = bytes.indexOf(10, start);
      if (end < 0 || end > hi) end = hi;
      let tab = bytes.indexOf(9, start);
      if (tab < 0 || tab > end) tab = end;
      const order = bytes.compare(word, 0, word.length, start, tab);
      if (order === 0) return { tab, end };
      if (order < 0) lo = end + 1;
      else hi = start;
    }
    return undefined;
  }

  #doc(offset: number): [string, string, string, string, number, string, number | null] {
    const start = this.#docsStart + offset;
    const end = this.#bytes.indexOf(10, start);
    return JSON.parse(this.#bytes.toString('utf8', start, end)) as [string, string, string, string, number, string, number | null];
  }
}

/**
 * Searches several directories' indexes (a project's and the global one) as one list, best
 * first, ties by id. Each file ranks with its own statistics: a word rare in one directory weighs
 * more there, as it should for the memories it picks out.
 */
export function searchIndexes(files: readonly LexicalIndexFile[], words: readonly string[], options: { limit?: number; rule?: MatchRule } = {}): LexicalMatch[] {
  const all = files.flatMap((file) => file.search(words, { ...(options.rule ? { rule: options.rule } : {}) }));
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, options.limit ?? all.length);
}

function isHeader(value: unknown): value is LexicalIndexHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return (
    h.format === LEXICAL_INDEX_FORMAT &&
    h.formatVersion === LEXICAL_INDEX_FORMAT_VERSION &&
    typeof h.dir === 'string' &&
    typeof h.project === 'string' &&
    typeof h.asOf === 'string' &&
    Number.isInteger(h.docCount) &&
    Number.isInteger(h.docsBytes) &&
    (h.docsBytes as number) >= 0
  );
}

function invalid(why: string, cause?: unknown): EngramError {
  return new EngramError('RECALL_INDEX_INVALID', `lexical index file: ${why}`, cause === undefined ? undefined : { cause });
}
