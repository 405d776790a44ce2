import { EXCERPT_HEAD, EXCERPT_TAIL } from '../events/transcript-events.js';
import { capText, redactCapped } from '../redaction/redact-capped.js';
import { redactText } from '../redaction/redact.js';

// Raw text kept past each end of the window: a secret cut in half where the window starts is
// then cut away again after redaction, never kept half (redact-capped.ts does the same).
const OVERLAP = 4096;

export interface Excerpt {
  /** Redacted: the head, a marker saying how much was left out, the tail; or all of it. */
  text: string;
  /** Whether the middle was left out. */
  cut: boolean;
  /** Characters appended, before redaction and the cut. */
  chars: number;
}

/**
 * The start and the end of a long text appended piece by piece, in bounded memory: the first
 * `head` and last `tail` characters survive (plus an overlap), whatever the length. Redaction
 * runs once, on what is kept, when the excerpt is taken.
 */
export class ExcerptWindow {
  readonly #head: number;
  readonly #tail: number;
  #start = '';
  #end: string[] = [];
  #endChars = 0;
  #chars = 0;

  /** Defaults: EXCERPT_HEAD and EXCERPT_TAIL. */
  constructor(head = EXCERPT_HEAD, tail = EXCERPT_TAIL) {
    this.#head = head;
    this.#tail = tail;
  }

  get chars(): number {
    return this.#chars;
  }

  append(text: string): void {
    if (text.length === 0) return;
    this.#chars += text.length;
    const startRoom = this.#head + OVERLAP - this.#start.length;
    if (startRoom > 0) this.#start += text.slice(0, startRoom);
    this.#end.push(text);
    this.#endChars += text.length;
    // Trimmed only when twice what is kept, so appending stays linear; until then `#end` holds
    // everything, which finish() relies on for short texts.
    const keep = Math.max(this.#tail + OVERLAP, this.#head + this.#tail + 2 * OVERLAP);
    if (this.#endChars > 2 * keep) {
      const joined = this.#end.join('');
      this.#end = [joined.slice(joined.length - keep)];
      this.#endChars = keep;
    }
  }

  finish(): Excerpt {
    const chars = this.#chars;
    if (chars <= this.#head + this.#tail + 2 * OVERLAP) {
      // All of it is held: redact it whole and cut the redacted text, so the count is exact.
      const redacted = redactText(this.#end.join(''));
      if (redacted.length <= this.#head + this.#tail) return { text: redacted, cut: false, chars };
      const head = capText(redacted, this.#head);
      const tail = lastChars(redacted, this.#tail);
      return { text: joinCut(head, redacted.length - head.length - tail.length, tail), cut: true, chars };
    }
    const head = redactCapped(this.#start, this.#head);
    const tail = redactedEnd(this.#end.join(''), this.#tail);
    return { text: joinCut(head, chars - this.#head - this.#tail, tail), cut: true, chars };
  }
}

function joinCut(head: string, left: number, tail: string): string {
  return `${head}\n\n[… ${left.toLocaleString('en-US')} characters of the conversation left out …]\n\n${tail}`;
}

/** The last `n` characters of `text`, redacted, never starting inside a marker. */
function redactedEnd(text: string, n: number): string {
  let out = lastChars(redactText(text), n);
  // Cutting can change how the kept text reads; what comes out is what redaction leaves alone.
  for (let round = 0; round < 3; round++) {
    const again = redactText(out);
    if (again === out) return out;
    out = lastChars(again, n);
  }
  return out;
}

/**
 * At most `n` characters from the end of already redacted `text`, starting neither inside a
 * marker (`CTED:github]` reads like damage) nor on the second half of a surrogate pair.
 */
function lastChars(text: string, n: number): string {
  if (text.length <= n) return text;
  let start = text.length - n;
  const open = text.lastIndexOf('[REDACTED:', start - 1);
  if (open >= 0) {
    const close = text.indexOf(']', open);
    if (close >= start) start = close + 1;
  }
  const first = text.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start++;
  return text.slice(start);
}
