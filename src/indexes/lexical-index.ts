import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { EngramError } from '../errors.js';
import { rankPostings, type Bm25Index, type Posting } from './bm25.js';
import { MAX_WORD_BYTES } from './query-words.js';

/**
 * The lexical index as one file, made to be queried by a hook process that has just started: a
 * query reads the header, a few small pieces of the dictionary, its words' postings and the lines
 * of the memories it returns, never the whole file. Its cost grows with the query, not with the
 * number of memories.
 *
 * Layout:
 *   1. a header line: JSON (format, formatVersion, the sections' sizes, where it came from);
 *   2. one line per memory: a JSON array [id, file, name, description, confidence,
 *      lastReinforced, halfLifeDays | null];
 *   3. the dictionary, one line per word in UTF-8 byte order: `word\tstart\tlength`, where its
 *      postings are in section 4 (base 36). Words hold no tab or newline and are at most
 *      MAX_WORD_BYTES (query-words.ts), so a line is short and a binary search over the section
 *      reads one small window per step;
 *   4. postings, one run per word: `doc:score,doc:score…`, doc the byte offset of the memory's
 *      line in section 2 and score its share in thousandths, both base 36.
 *
 * Hook-safe: Node built-ins only, no zod (the header is checked by hand).
 */

export const LEXICAL_INDEX_FORMAT = 'engram-lexical-index';
/** Bump when the layout changes; a reader refuses a file of another formatVersion. */
export const LEXICAL_INDEX_FORMAT_VERSION = 1;
/** Longest description a line keeps: enough for the line of context a hook prints. */
const DESCRIPTION_CHARS = 300;
/** Longest header a reader accepts. */
const HEADER_BYTES = 4096;
/** A dictionary line is at most a word, two tabs, two numbers and a newline: a window holds the rest of one and the next. */
const WINDOW = 4 * (MAX_WORD_BYTES + 32);

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
  /** Bytes of sections 2 and 3. */
  readonly docsBytes: number;
  readonly termsBytes: number;
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
  let postingsBytes = 0;
  let termsBytes = 0;
  const termLines: string[] = [];
  const runs: string[] = [];
  for (const [term, postings] of index.terms) {
    const run = `${postings.map(([doc, score]) => `${offsets[doc]!.toString(36)}:${score.toString(36)}`).join(',')}\n`;
    const line = `${term}\t${postingsBytes.toString(36)}\t${(run.length - 1).toString(36)}\n`;
    runs.push(run);
    termLines.push(line);
    postingsBytes += run.length;
    termsBytes += Buffer.byteLength(line);
  }
  const header: LexicalIndexHeader = {
    format: LEXICAL_INDEX_FORMAT,
    formatVersion: LEXICAL_INDEX_FORMAT_VERSION,
    dir: where.dir,
    project: where.project,
    asOf: where.asOf,
    docCount: index.docs.length,
    docsBytes,
    termsBytes,
  };
  return `${JSON.stringify(header)}\n${docLines.join('')}${termLines.join('')}${runs.join('')}`;
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

/** Where the bytes are: in memory, or in a file read piece by piece. */
interface Bytes {
  readonly size: number;
  read(start: number, length: number): Buffer;
}

type DocLine = [string, string, string, string, number, string, number | null];

/** An index, opened: its header read, the rest read as a query needs it. */
export class LexicalIndexFile {
  readonly header: LexicalIndexHeader;
  readonly #bytes: Bytes;
  readonly #close: () => void;
  readonly #docsStart: number;
  readonly #termsStart: number;
  readonly #postingsStart: number;

  /**
   * An index file on disk, kept open until close(). Throws RECALL_INDEX_INVALID on a file that is
   * not an index of this formatVersion, and the system's error when it cannot be read.
   */
  static open(path: string): LexicalIndexFile {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const read = (start: number, length: number) => {
        const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - start)));
        let done = 0;
        while (done < buffer.length) {
          const n = readSync(fd, buffer, done, buffer.length - done, start + done);
          if (n === 0) break;
          done += n;
        }
        return buffer.subarray(0, done);
      };
      return new LexicalIndexFile({ size, read }, () => closeSync(fd));
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** An index held in memory (the evaluation, tests). Throws RECALL_INDEX_INVALID as open() does. */
  static fromBytes(bytes: Buffer): LexicalIndexFile {
    return new LexicalIndexFile({ size: bytes.length, read: (start, length) => bytes.subarray(start, start + length) }, () => undefined);
  }

  private constructor(bytes: Bytes, close: () => void) {
    const head = bytes.read(0, HEADER_BYTES);
    const end = head.indexOf(10);
    if (end < 0) throw invalid('no header line');
    let header: unknown;
    try {
      header = JSON.parse(head.toString('utf8', 0, end));
    } catch (cause) {
      throw invalid('its header is not JSON', cause);
    }
    if (!isHeader(header)) throw invalid(`not an ${LEXICAL_INDEX_FORMAT} of formatVersion ${LEXICAL_INDEX_FORMAT_VERSION}`);
    if (end + 1 + header.docsBytes + header.termsBytes > bytes.size) throw invalid('it is shorter than its header says');
    this.header = header;
    this.#bytes = bytes;
    this.#close = close;
    this.#docsStart = end + 1;
    this.#termsStart = this.#docsStart + header.docsBytes;
    this.#postingsStart = this.#termsStart + header.termsBytes;
  }

  close(): void {
    this.#close();
  }

  /** The memories that share at least `minShared` of `words` (default 1), best first, at most `limit`. */
  search(words: readonly string[], options: { limit?: number; minShared?: number } = {}): LexicalMatch[] {
    const hits = rankPostings(words, (word) => this.postings(word), options.minShared ?? 1);
    return hits.slice(0, options.limit ?? hits.length).map((hit) => {
      const [id, file, name, description, confidence, lastReinforced, halfLifeDays] = this.#doc(hit.doc);
      return { id, file, name, description, score: hit.score / 1000, shared: hit.shared, confidence, lastReinforced, halfLifeDays };
    });
  }

  /**
   * Every memory the index holds, in index order: what recall needs to show a memory another
   * signal (vectors, graph) found. Reads the whole memories section, so callers keep the answer.
   */
  memories(): Array<Omit<LexicalMatch, 'score' | 'shared'>> {
    const text = this.#bytes.read(this.#docsStart, this.header.docsBytes).toString('utf8');
    const out: Array<Omit<LexicalMatch, 'score' | 'shared'>> = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const [id, file, name, description, confidence, lastReinforced, halfLifeDays] = JSON.parse(line) as DocLine;
      out.push({ id, file, name, description, confidence, lastReinforced, halfLifeDays });
    }
    return out;
  }

  /** A word's postings, by its memories' offsets; none when the index does not have it. */
  postings(word: string): Posting[] {
    const key = Buffer.from(word);
    if (key.length > MAX_WORD_BYTES) return [];
    const entry = this.#find(key);
    if (!entry) return [];
    return decodePostings(this.#bytes.read(this.#postingsStart + entry.start, entry.length).toString('latin1'));
  }

  /** Binary search over the dictionary's lines, one small window read per step. */
  #find(word: Buffer): { start: number; length: number } | undefined {
    let lo = this.#termsStart;
    let hi = this.#postingsStart;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // The first line starting at or after mid (mid itself when it is lo, a line start).
      let start = lo;
      let window = this.#bytes.read(mid === lo ? lo : mid - 1, WINDOW);
      if (mid !== lo) {
        const newline = window.indexOf(10);
        if (newline >= 0 && mid + newline < hi) {
          start = mid + newline;
          window = window.subarray(newline + 1);
        } else window = this.#bytes.read(lo, WINDOW);
      }
      const end = window.indexOf(10);
      const tab = window.indexOf(9);
      if (end < 0 || tab < 0 || tab > end) throw invalid(`a dictionary line at byte ${start} is malformed`);
      const order = window.compare(word, 0, word.length, 0, tab);
      if (order === 0) {
        const [startText, lengthText] = window.toString('latin1', tab + 1, end).split('\t');
        return { start: parseInt(startText!, 36), length: parseInt(lengthText!, 36) };
      }
      if (order < 0) lo = start + end + 1;
      else hi = start;
    }
    return undefined;
  }

  #doc(offset: number): DocLine {
    const start = this.#docsStart + offset;
    for (let length = 1024; ; length *= 4) {
      const chunk = this.#bytes.read(start, length);
      const end = chunk.indexOf(10);
      if (end >= 0) return JSON.parse(chunk.toString('utf8', 0, end)) as DocLine;
      if (chunk.length < length) throw invalid(`the memory line at byte ${start} is cut short`);
    }
  }
}

/** `doc:score,…` in base 36, decoded without splitting: the longest runs have a posting per memory. */
function decodePostings(text: string): Posting[] {
  const out: Posting[] = [];
  let doc = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 /* : */) {
      doc = value;
      value = 0;
    } else if (c === 44 /* , */) {
      out.push([doc, value]);
      value = 0;
    } else value = value * 36 + (c <= 57 ? c - 48 : c - 87);
  }
  if (text.length > 0) out.push([doc, value]);
  return out;
}

/**
 * Searches several directories' indexes (a project's and the global one) as one list, best
 * first, ties by id. Each file ranks with its own statistics: a word rare in one directory weighs
 * more there, as it should for the memories it picks out.
 */
export function searchIndexes(files: readonly LexicalIndexFile[], words: readonly string[], options: { limit?: number; minShared?: number } = {}): LexicalMatch[] {
  const all = files.flatMap((file) => file.search(words, { ...(options.minShared ? { minShared: options.minShared } : {}) }));
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, options.limit ?? all.length);
}

function isHeader(value: unknown): value is LexicalIndexHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  const size = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
  return (
    h.format === LEXICAL_INDEX_FORMAT &&
    h.formatVersion === LEXICAL_INDEX_FORMAT_VERSION &&
    typeof h.dir === 'string' &&
    typeof h.project === 'string' &&
    typeof h.asOf === 'string' &&
    size(h.docCount) &&
    size(h.docsBytes) &&
    size(h.termsBytes)
  );
}

function invalid(why: string, cause?: unknown): EngramError {
  return new EngramError('RECALL_INDEX_INVALID', `lexical index file: ${why}`, cause === undefined ? undefined : { cause });
}
