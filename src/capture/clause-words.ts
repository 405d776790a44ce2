import {
  BASE_FORMS_IN_ED, CONTRAST, FILLER_MARKS, FILLER_PHRASES, FILLER_WORDS, NEGATING, NOT_CONTRASTED,
  NOT_IMPERATIVE, PAST_OR_REPORT, RULE_VERB, STRONG_RULE, TRAILING_NOISE, YOU_MODAL,
} from './correction-cues.js';
import type { Sentence } from './prose-sentences.js';
import { isLetters, phraseAt, phraseEndingAt, type Word } from './words.js';

/*
 * What the correction detector reads off a sentence's words: whether a clause gives an order,
 * where filler ends, where the lesson's text starts and ends.
 */

/** A sentence with its words. */
export interface Read {
  sentence: Sentence;
  words: Word[];
}

/** Whether the clause at word `i` gives an order: "read the tests first", not "we might …". */
export function imperativeAt(words: readonly Word[], i: number): boolean {
  if (phraseAt(words, i, RULE_VERB) >= 0 || strongRuleAt(words, i)) return true;
  const word = words[i];
  return word !== undefined && !word.punct && isBaseVerb(word.w) && !NOT_IMPERATIVE.has(word.w);
}

export function strongRuleAt(words: readonly Word[], i: number): boolean {
  if (phraseAt(words, i, STRONG_RULE) >= 0) return true;
  const modal = phraseAt(words, i, YOU_MODAL);
  if (modal < 0) return false;
  const next = words[modal];
  if (!next || next.punct || !isLetters(next.w.slice(0, 1))) return false;
  return next.w !== 'have' && !(next.w === 'be' && words[modal + 1]?.w === 'able');
}

export function leadingLetters(word: string): string {
  let k = 0;
  while (k < word.length && ((word.charCodeAt(k) >= 97 && word.charCodeAt(k) <= 122) || word[k] === "'")) k++;
  return word.slice(0, k);
}

/** Whether a word has a letter or digit in it (an emoji or a symbol has none). */
export function hasLetter(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return true;
    // Latin, Greek, Cyrillic … below the punctuation and symbol blocks; CJK and Hangul above them.
    if ((code >= 0xc0 && code < 0x2000) || (code >= 0x3040 && code < 0xd800)) return true;
  }
  return false;
}

export function isDigits(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) < 48 || word.charCodeAt(i) > 57) return false;
  return true;
}

export function isBaseVerb(word: string): boolean {
  if (word.length < 2 || !isLetters(word) || PAST_OR_REPORT.has(word)) return false;
  if (word.endsWith('ed') && !BASE_FORMS_IN_ED.has(word)) return false;
  if (word.endsWith('s') && !['ss', 'us', 'is', 'ys'].some((ending) => word.endsWith(ending))) return false;
  return !word.endsWith("'s") && !word.endsWith("n't");
}

/**
 * "X, not Y", "X, never Y", "X instead of Y", "X rather than Y" with words on both sides; "do
 * not", "is not", "not sure" are negations, not contrasts.
 */
export function hasContrast(words: readonly Word[], from: number): boolean {
  for (let k = from; k < words.length; k++) {
    const word = words[k]!;
    if ((word.w === ',' || word.w === ';') && k > from && !words[k - 1]!.punct && words[k + 1]?.w === 'never') {
      const after = words[k + 2];
      if (after && !after.punct && after.w !== 'mind') return true;
    }
    const end = phraseAt(words, k, CONTRAST);
    if (end < 0) continue;
    let b = k - 1;
    while (b >= from && (words[b]!.w === ',' || words[b]!.w === ';')) b--;
    const before = b >= from ? words[b]! : undefined;
    const after = words[end];
    if (!before || before.punct || !after || (after.punct && after.w !== '-')) continue;
    if (word.w === 'not' && end === k + 1 && (NEGATING.has(before.w) || NOT_CONTRASTED.has(after.w))) continue;
    return true;
  }
  return false;
}

/** Past filler words and marks at word `i`. */
export function skipFiller(words: readonly Word[], i: number): number {
  for (;;) {
    const word = words[i];
    if (!word) return i;
    if (word.punct ? FILLER_MARKS.has(word.w) : FILLER_WORDS.has(word.w)) {
      i++;
      continue;
    }
    const phrase = phraseAt(words, i, FILLER_PHRASES);
    if (phrase < 0) return i;
    i = phrase;
  }
}

/** The index after the last word that is not closing punctuation. */
export function lastWord(words: readonly Word[]): number {
  let end = words.length;
  while (end > 0 && words[end - 1]!.punct && (words[end - 1]!.w === '.' || words[end - 1]!.w === '!' || words[end - 1]!.w === '?')) end--;
  return end;
}

/** Where in the sentence's text the lesson ends once its trailing "from now on", "again", "please" are off. */
export function trimTrailing(read: Read, end: number): number {
  const { words, sentence } = read;
  let k = end;
  for (;;) {
    while (k > 0 && words[k - 1]!.punct && ['.', '!', '?', ','].includes(words[k - 1]!.w)) k--;
    const start = phraseEndingAt(words, k, TRAILING_NOISE);
    if (start <= 0) break;
    k = start;
  }
  return k === end ? sentence.text.length : k > 0 ? words[k - 1]!.end : 0;
}

export function startOf(read: Read, i: number): number {
  return i < read.words.length ? read.words[i]!.start : read.sentence.text.length;
}
