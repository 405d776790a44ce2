/**
 * The sentences a person typed into a prompt, as opposed to what they pasted: fenced and indented
 * code, quoted lines, stack traces and logs are left out, and inside a sentence inline code and
 * quoted text are masked, so a cue word there ("never" in code, "always" in someone else's quote)
 * can never fire. Pure and linear in the prompt's length; no imports, so the hook bundle stays small.
 */

export interface Sentence {
  /** The sentence as typed, code spans and quotes included (what a lesson is cut from). */
  text: string;
  /**
   * The same sentence, same length, lowercased, with typographic apostrophes made straight and
   * code spans and quoted text replaced by `_`: where cues are looked for. Index i here is
   * character i of `text`.
   */
  cue: string;
  /** It ended with a question mark. */
  question: boolean;
  /**
   * For an item of a list that a sentence ending in ':' introduced ("Our CONTRIBUTING.md says:",
   * "From now on:"), the index of that sentence; -1 otherwise. Whether the items are the
   * person's rules or pasted material depends on what the introduction said.
   */
  intro: number;
}

const LIST_ITEM = /^ {0,3}(?:[-*+\u2022]|\d{1,3}[.)])\s/;

/** Masked characters: not a letter, so no cue matches across or inside a masked span. */
const MASK = '_';

/**
 * Lines that are pasted, not typed: indented code, quoted lines, stack frames, log lines, shell
 * prompts, code frames, diffs. One expression, so a hook compiles one, not a dozen.
 */
const PASTED_LINE =
  /^(?: {4}|\t| {0,3}>|\s*(?:at\s+[\w$.<>[\]]+\s*\(|at\s+\S+:\d+:\d+|File "|Traceback \(most recent call last\)|[A-Za-z]*(?:Error|Exception|Warning)(?:\s*\[\w+\])?:|(?:npm|yarn|pnpm) (?:ERR|WARN)|\[?\d{4}-\d{2}-\d{2}[T ]\d|(?:FAIL|PASS|ERROR|WARN|INFO|DEBUG|TRACE|panic:)\s|[$\u276f%#]\s+\S|\d+\s*\||\^+\s*$|diff --git|@@ |\+\+\+ |--- a\/|\/\/|\/\*|\*\/|#!|<\/?[A-Za-z][\w-]*[\s>/])|\s+\* )/;

const CODE_START =
  /^\s*(?:import|export|const|let|var|function|def|class|return|public|private|protected|package|using|fn|func|impl|struct|enum|interface|type|#include|#define|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER)\s/;

/**
 * Whether a line is pasted rather than typed: see PASTED_LINE; or unfenced code, a line that
 * reads as a statement of some programming language. (" * text" continues a block comment;
 * "* text" at the margin is a markdown bullet.)
 */
function isPastedLine(line: string): boolean {
  if (PASTED_LINE.test(line)) return true;
  const t = line.trim();
  if (t.length === 0) return false;
  const last = t[t.length - 1]!;
  if (last === ';' || last === '{' || last === '}') return true;
  if (CODE_START.test(t) && /[=({:;<]/.test(t)) return true;
  return /\)\s*(?:=>|\{)|\b(?:if|for|while)\s*\(/.test(t);
}

/** Same length as `c`: lowercase where that keeps one UTF-16 unit, typographic apostrophes straight. */
function foldChar(c: string): string {
  if (c === '\u2019' || c === '\u2018' || c === '\u02bc') return "'";
  if (c === '\t' || c === '\u00a0' || c === '\u2009' || c === '\u202f') return ' ';
  const lower = c.toLowerCase();
  return lower.length === 1 ? lower : c;
}

/** `line` lowercased, apostrophes straight, odd spaces plain, and still exactly as long. */
function fold(line: string): string {
  const lower = line.toLowerCase();
  if (lower.length !== line.length) return Array.from({ length: line.length }, (_, i) => foldChar(line[i]!)).join('');
  let folded = lower;
  for (const c of ['\u2018', '\u2019', '\u02bc']) if (folded.includes(c)) folded = folded.replaceAll(c, "'");
  for (const c of ['\t', '\u00a0', '\u2009', '\u202f']) if (folded.includes(c)) folded = folded.replaceAll(c, ' ');
  return folded;
}

/** Whether a letter or digit lies in text[from, to). */
function hasWordChar(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isWordChar(text[i])) return true;
  return false;
}

function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return /[\p{L}\p{N}]/u.test(c);
}

const isSpace = (c: string | undefined): boolean => c === undefined || c === ' ' || c === '\t' || /\s/.test(c);

/** What can open a masked span: backticks and quotation marks. */
const OPENERS = /[`"\u201c\u00ab\u201e'\u2018]/g;

/**
 * The cue view of one prose line: folded, with inline code, double-quoted, curly-quoted,
 * guillemet-quoted and single-quoted spans masked. Unpaired marks mask nothing. Linear: the scan
 * jumps from one possible opener to the next, and no search for a closing mark is ever repeated
 * over ground an earlier one covered in vain.
 */
function cueLine(line: string): string {
  const folded = fold(line);
  const masked: Array<[number, number]> = [];
  let unclosedRun = Infinity;
  const unclosed = new Set<string>();
  const single = { clearBefore: 0 };
  const openers = new RegExp(OPENERS.source, 'g');
  for (let m = openers.exec(line); m; m = openers.exec(line)) {
    const i = m.index;
    const c = line[i]!;
    if (c === '`') {
      let run = 1;
      while (line[i + run] === '`') run++;
      // A run with no closing run of the same length after it rules out every longer run too.
      const close = run < unclosedRun ? line.indexOf('`'.repeat(run), i + run) : -1;
      if (close < 0) unclosedRun = Math.min(unclosedRun, run);
      else masked.push([i, close + run]);
      openers.lastIndex = close < 0 ? i + run : close + run;
      continue;
    }
    const closer = c === '"' ? '"' : c === '\u201c' ? '\u201d' : c === '\u00ab' ? '\u00bb' : c === '\u201e' ? '\u201c' : '';
    if (closer) {
      const close = unclosed.has(closer) ? -1 : line.indexOf(closer, i + 1);
      if (close < 0) unclosed.add(closer);
      else {
        masked.push([i, close + 1]);
        openers.lastIndex = close + 1;
      }
      continue;
    }
    // A single quote opens a quotation only after a space or bracket and before a non-space, and
    // closes before a space or punctuation: "don't" and "users' names" quote nothing.
    if (isSpaceOrOpen(line[i - 1]) && !isSpace(line[i + 1])) {
      const close = singleQuoteClose(line, i + 1, c === "'" ? "'" : '\u2019', single);
      if (close > 0) {
        masked.push([i, close + 1]);
        openers.lastIndex = close + 1;
      }
    }
  }
  if (masked.length === 0) return folded;
  const parts: string[] = [];
  let kept = 0;
  for (const [from, to] of masked) {
    parts.push(folded.slice(kept, from), MASK.repeat(to - from));
    kept = to;
  }
  parts.push(folded.slice(kept));
  return parts.join('');
}

function isSpaceOrOpen(c: string | undefined): boolean {
  return c === undefined || isSpace(c) || c === '(' || c === '[' || c === ':';
}

/**
 * The closing single quote for an opener just before `from`, within 300 characters, or -1.
 * Whether a position closes a quotation depends on that position alone, so positions a failed
 * search passed over (`state.clearBefore`) are never looked at again.
 */
function singleQuoteClose(line: string, from: number, mark: string, state: { clearBefore: number }): number {
  const end = Math.min(line.length, from + 300);
  for (let k = Math.max(from, state.clearBefore); k < end; k++) {
    if (line[k] !== mark) continue;
    if (isWordChar(line[k - 1]) && isWordChar(line[k + 1])) continue; // don't, it's
    if (isWordChar(line[k + 1])) continue;
    if (isSpace(line[k - 1])) {
      state.clearBefore = k;
      return -1;
    }
    return k;
  }
  state.clearBefore = Math.max(state.clearBefore, end);
  return -1;
}

const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'approx', 'cf', 'mr', 'ms', 'dr', 'fig', 'incl', 'esp']);

/** Whether the `.` at `dot` ends a sentence rather than an abbreviation, a number or a file name. */
function endsSentence(cue: string, dot: number, text: string): boolean {
  if (!isSpace(cue[dot + 1]) && cue[dot + 1] !== ')' && cue[dot + 1] !== '"') return false;
  let start = dot;
  while (start > 0 && dot - start < 8 && ((cue[start - 1]! >= 'a' && cue[start - 1]! <= 'z') || cue[start - 1] === '.')) start--;
  const word = cue.slice(start, dot);
  // "No. Use pnpm." ends a sentence; "see no. 4" does not.
  if (word === 'no') return !/\d/.test(cue[dot + 2] ?? '');
  // "…, naming, etc. I prefer …": a list's "etc." ends the sentence when a capital follows.
  if (word === 'etc') return text[dot + 2] !== undefined && text[dot + 2] !== text[dot + 2]!.toLowerCase();
  return !ABBREVIATIONS.has(word);
}

/** How many UTF-16 units the pictographic emoji at `i` takes, or 0. */
function emojiLength(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0x2600) return 0;
  const point = text.codePointAt(i)!;
  if (!/\p{Extended_Pictographic}/u.test(String.fromCodePoint(point))) return 0;
  return point > 0xffff ? 2 : 1;
}

/** Splits a prose line into sentences at `.`, `!`, `?` and emoji, then trims each. */
function splitLine(text: string, cue: string, intro: number, into: Sentence[]): void {
  let start = 0;
  let i = 0;
  while (i < cue.length) {
    const c = cue[i]!;
    // In chat an emoji often ends a sentence: "Remember to breathe 😅 ok now …".
    const emoji = emojiLength(cue, i);
    if (emoji > 0 && isSpace(cue[i + emoji]) && i + emoji < cue.length) {
      push(text, cue, start, i + emoji, false, intro, into);
      start = i + emoji;
      i = start;
      continue;
    }
    // Not at ';': "never retry it; stop and tell me" is one rule.
    const terminal = c === '!' || c === '?' || (c === '.' && endsSentence(cue, i, text));
    if (!terminal) {
      i++;
      continue;
    }
    let end = i + 1;
    let question = c === '?';
    while (end < cue.length && (cue[end] === '.' || cue[end] === '!' || cue[end] === '?')) {
      if (cue[end] === '?') question = true;
      end++;
    }
    push(text, cue, start, end, question, intro, into);
    start = end;
    i = end;
  }
  push(text, cue, start, cue.length, false, intro, into);
}

function push(text: string, cue: string, from: number, to: number, question: boolean, intro: number, into: Sentence[]): void {
  while (from < to && isSpace(cue[from])) from++;
  while (to > from && isSpace(cue[to - 1])) to--;
  if (to > from && hasWordChar(cue, from, to)) {
    into.push({ text: text.slice(from, to), cue: cue.slice(from, to), question, intro });
  }
}

/**
 * Elements Claude Code and IDEs wrap around what the person typed (the file open in the editor,
 * a selection, a reminder, a command's output): none of it is the person's own words.
 */
const WRAPPER = /<(ide_[a-z_]+|system-reminder|command-[a-z]+|local-command-[a-z]+|task-notification|bash-(?:input|stdout|stderr)|user-prompt-submit-hook)>/g;

/** `prompt` with every wrapper element replaced by a line break: what follows starts a line. */
function blankWrappers(prompt: string): string {
  if (prompt.indexOf('<') < 0) return prompt;
  const parts: string[] = [];
  const unclosed = new Set<string>();
  let kept = 0;
  for (const match of prompt.matchAll(WRAPPER)) {
    if (match.index < kept) continue;
    const name = match[1]!;
    const closeTag = `</${name}>`;
    const close = unclosed.has(name) ? -1 : prompt.indexOf(closeTag, match.index + match[0].length);
    if (close < 0) unclosed.add(name);
    const end = close < 0 ? match.index + match[0].length : close + closeTag.length;
    parts.push(prompt.slice(kept, match.index), '\n');
    kept = end;
  }
  parts.push(prompt.slice(kept));
  return parts.join('');
}

/** The typed sentences of `prompt`, in order. */
export function proseSentences(input: string): Sentence[] {
  const prompt = blankWrappers(input);
  const sentences: Sentence[] = [];
  let fence = '';
  let intro = -1;
  let lineStart = 0;
  while (lineStart <= prompt.length) {
    let lineEnd = prompt.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = prompt.length;
    let line = prompt.slice(lineStart, lineEnd);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    lineStart = lineEnd + 1;
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1]) fence = '';
      continue;
    }
    if (opener) {
      fence = opener[1]!;
      continue;
    }
    if (isPastedLine(line)) continue;
    if (line.trim() === '') continue;
    const item = LIST_ITEM.test(line);
    if (!item) intro = -1;
    const before = sentences.length;
    splitLine(line, cueLine(line), item ? intro : -1, sentences);
    if (!item && line.trimEnd().endsWith(':') && sentences.length > before) intro = sentences.length - 1;
  }
  return sentences;
}
