/**
 * Words and phrases for the correction detector. A hook process pays for every regular
 * expression it compiles, and a large alternation costs milliseconds to compile and again to tier
 * up; phrases here are plain word sequences looked up in a Map, so matching one costs a few
 * comparisons and compiles nothing. No imports.
 */

export interface Word {
  /** The word, folded as the cue is (lowercase, straight apostrophes), or one punctuation mark. */
  w: string;
  /** Where it starts and ends in the text it was cut from. */
  start: number;
  end: number;
  punct: boolean;
}

/** Marks that are always a token of their own. */
const SEPARATORS = new Set([',', ';', '!', '?', '(', ')', '[', ']', '{', '}', '"', '\u201c', '\u201d', '\u2014', '\u2013', '\u2026']);
/** Marks that are a token of their own at the edge of a word, and part of it inside ("don't", "gpt-5.1"). */
const EDGES = new Set(['.', ':', "'", '-']);

function isSpaceCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 0x2009 || code === 0x202f || code === 0x3000;
}

/** "nooo" is "no", "ughhh" is "ugh", "hmmm" is "hmm". */
function squeeze(word: string): string {
  const last = word[word.length - 1];
  if (word.length > 2 && (last === 'o' || last === 'h' || last === 'm')) {
    let k = word.length;
    while (k > 1 && word[k - 1] === last) k--;
    const stem = word.slice(0, k + 1);
    if (stem === 'no' || stem === 'ugh' || stem === 'hm' || stem === 'hmm') return stem === 'hm' ? 'hmm' : stem;
  }
  return word;
}

/** The words and punctuation of `text` (already folded), with their positions. Linear. */
export function tokenize(text: string): Word[] {
  const words: Word[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (isSpaceCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    if (SEPARATORS.has(text[i]!)) {
      words.push({ w: text[i]!, start: i, end: i + 1, punct: true });
      i++;
      continue;
    }
    let j = i;
    while (j < n && !isSpaceCode(text.charCodeAt(j)) && !SEPARATORS.has(text[j]!)) j++;
    let a = i;
    let b = j;
    // A leading '.' stays on the word: ".env" is a name.
    while (a < b && EDGES.has(text[a]!) && text[a] !== '.') {
      words.push({ w: text[a]!, start: a, end: a + 1, punct: true });
      a++;
    }
    const tail: Word[] = [];
    while (b > a && EDGES.has(text[b - 1]!)) {
      tail.push({ w: text[b - 1]!, start: b - 1, end: b, punct: true });
      b--;
    }
    if (b > a) words.push({ w: squeeze(text.slice(a, b)), start: a, end: b, punct: false });
    for (let k = tail.length - 1; k >= 0; k--) words.push(tail[k]!);
    i = j;
  }
  return words;
}

/**
 * Phrase patterns: words separated by spaces, `a|b` for alternatives, a leading `?` for an
 * optional slot, `+` joining several words into one alternative ("need+to"). They stay the
 * strings they are written as, and matching reads them in place: a table costs nothing to build
 * when a hook process loads it.
 */
export type Phrases = readonly string[];

export function phrases(...patterns: string[]): Phrases {
  return patterns;
}

/** Adds to `found` every word index at which `pattern`, from its slot at `slot`, can end when matched from word `at`. */
function ends(words: readonly Word[], pattern: string, slot: number, at: number, found: number[]): void {
  if (slot >= pattern.length) {
    found.push(at);
    return;
  }
  let slotEnd = pattern.indexOf(' ', slot);
  if (slotEnd < 0) slotEnd = pattern.length;
  const next = slotEnd + 1;
  let option = slot;
  if (pattern[slot] === '?') {
    option++;
    ends(words, pattern, next, at, found);
  }
  while (option < slotEnd) {
    let optionEnd = pattern.indexOf('|', option);
    if (optionEnd < 0 || optionEnd > slotEnd) optionEnd = slotEnd;
    // The words of this alternative, '+' between them.
    let k = at;
    let piece = option;
    let matched = true;
    while (piece < optionEnd) {
      let pieceEnd = pattern.indexOf('+', piece);
      if (pieceEnd < 0 || pieceEnd > optionEnd) pieceEnd = optionEnd;
      const word = words[k]?.w;
      if (word === undefined || word.length !== pieceEnd - piece || !pattern.startsWith(word, piece)) {
        matched = false;
        break;
      }
      k++;
      piece = pieceEnd + 1;
    }
    if (matched) ends(words, pattern, next, k, found);
    option = optionEnd + 1;
  }
}

function endsAt(words: readonly Word[], i: number, table: Phrases): number[] {
  const found: number[] = [];
  if (i < words.length) for (const pattern of table) ends(words, pattern, 0, i, found);
  return found;
}

/** Where the longest phrase of `table` matching at word `i` ends (exclusive), or -1. */
export function phraseAt(words: readonly Word[], i: number, table: Phrases): number {
  let longest = -1;
  for (const end of endsAt(words, i, table)) if (end > i && end > longest) longest = end;
  return longest;
}

/** Where the longest phrase of `table` that ends exactly at word `end` (exclusive) starts, or -1. */
export function phraseEndingAt(words: readonly Word[], end: number, table: Phrases, longest = 8): number {
  for (let start = Math.max(0, end - longest); start < end; start++) {
    if (endsAt(words, start, table).includes(end)) return start;
  }
  return -1;
}

/** Whether any phrase of `table` occurs among `words` from `from` on. */
export function hasPhrase(words: readonly Word[], table: Phrases, from = 0): boolean {
  for (let i = from; i < words.length; i++) if (phraseAt(words, i, table) >= 0) return true;
  return false;
}

/** Whether the word is letters and apostrophes only: what a verb can be. */
export function isLetters(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (!((code >= 97 && code <= 122) || code === 39)) return false;
  }
  return true;
}
