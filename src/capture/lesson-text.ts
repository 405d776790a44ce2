/**
 * How a lesson cut from a prompt is written down: as plain one-line text (no markdown, markup,
 * control characters or double quotes, so it can be quoted in context and listed in MEMORY.md as
 * data), and as a canonical description in which two phrasings of the same rule share their words
 * ("don't use npm" and "stop using npm" both read "Never use npm"), so a repeated lesson
 * reinforces the memory it matches instead of making another. Pure; no imports; character loops
 * and word lists rather than regular expressions, which a hook process would have to compile.
 */

export const LESSON_CAP = 200;
export const DESCRIPTION_CAP = 150;
export const NAME_CAP = 60;

/** Control, zero-width, line-separator and bidirectional-override characters: never kept. */
function isInvisible(code: number): boolean {
  return (
    code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x200b && code <= 0x200f) || code === 0x2028 ||
    code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x2069) || code === 0xfeff
  );
}

/** `[REDACTED:kind]` at `i`: its length, or 0. Markers stay as they are, brackets and all. */
function markerAt(text: string, i: number): number {
  if (!text.startsWith('[REDACTED:', i)) return 0;
  for (let k = i + 10; k < text.length && k < i + 51; k++) {
    const c = text[k]!;
    if (c === ']') return k > i + 10 ? k + 1 - i : 0;
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '-')) return 0;
  }
  return 0;
}

/** `[label](target)` at `i`: the label's end and the link's end, or undefined. */
function linkAt(text: string, i: number): { labelEnd: number; end: number } | undefined {
  const close = text.indexOf(']', i + 1);
  if (close < 0 || close - i > 200 || text[close + 1] !== '(') return undefined;
  const end = text.indexOf(')', close + 2);
  if (end < 0 || end - close > 500) return undefined;
  return { labelEnd: close, end: end + 1 };
}

const LEADING_JUNK = new Set([' ', '#', '\u203a', '-', '+', '\u2022', '\u00b7', ':', ',', ';', '.', '!']);
const TRAILING_JUNK = new Set([' ', ',', ';', ':', '.', '!', '?', '-', '\u2014', '\u2013']);

/** Plain, one-line, capped text: what a person said, with the markup taken out. */
export function cleanLesson(raw: string): string {
  // Markup and runs of spaces come out, so the cap is reached well within this much of the raw text.
  const text = raw.length > LESSON_CAP * 5 ? raw.slice(0, LESSON_CAP * 5) : raw;
  const out: string[] = [];
  // Inside "[label](target)": where the label ends and the whole link does.
  let link: { labelEnd: number; end: number } | undefined;
  let pendingSpace = false;
  const emit = (c: string) => {
    if (c === ' ') {
      pendingSpace = out.length > 0;
      return;
    }
    if (pendingSpace) out.push(' ');
    pendingSpace = false;
    out.push(c);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const code = text.charCodeAt(i);
    if (link && i === link.labelEnd) {
      // The label stays, the target goes.
      i = link.end - 1;
      link = undefined;
      continue;
    }
    if (isInvisible(code) || c === ' ' || c === '\t' || c === '\u00a0' || code === 0x3000) emit(' ');
    else if (c === '[') {
      const marker = markerAt(text, i);
      if (marker > 0) {
        for (let k = 0; k < marker; k++) emit(text[i + k]!);
        i += marker - 1;
        continue;
      }
      link = linkAt(text, i);
      if (!link) emit('(');
    } else if (c === ']') emit(')');
    else if (c === '`' || c === '*' || c === '\\') continue;
    else if (c === '!' && text[i + 1] === '[' && linkAt(text, i + 1)) continue;
    else if (c === '"' || c === '\u201c' || c === '\u201d' || c === '\u00ab' || c === '\u00bb' || c === '\u201e') emit("'");
    else if (c === '<') emit('\u2039');
    else if (c === '>') emit('\u203a');
    else emit(c);
  }
  // Leading list markers, headings and quote marks, and trailing punctuation, are not the rule.
  let from = 0;
  let to = out.length;
  while (from < to && LEADING_JUNK.has(out[from]!)) from++;
  while (to > from && TRAILING_JUNK.has(out[to - 1]!)) to--;
  return cap(out.slice(from, to).join(''), LESSON_CAP);
}

/** Cuts at a word boundary, marking the cut. */
export function cap(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  const space = cut.lastIndexOf(' ');
  let head = space > limit / 2 ? cut.slice(0, space) : cut;
  while (head.length > 0 && TRAILING_JUNK.has(head[head.length - 1]!)) head = head.slice(0, -1);
  return `${head}…`;
}

/** The verb a gerund names, for the commonest ones; a rough stem otherwise. */
function baseVerb(gerund: string): string {
  const known: Record<string, string> = {
    using: 'use', making: 'make', writing: 'write', leaving: 'leave', changing: 'change', creating: 'create',
    removing: 'remove', deleting: 'delete', generating: 'generate', rewriting: 'rewrite', renaming: 'rename',
    apologizing: 'apologize', apologising: 'apologise', guessing: 'guess', pushing: 'push', being: 'be',
    hardcoding: 'hardcode', including: 'include', closing: 'close', saving: 'save', moving: 'move',
    typing: 'type', merging: 'merge', refactoring: 'refactor', committing: 'commit', running: 'run',
    putting: 'put', skipping: 'skip', stopping: 'stop', getting: 'get', setting: 'set', adding: 'add',
    inventing: 'invent', wrapping: 'wrap',
  };
  if (known[gerund]) return known[gerund]!;
  const stem = gerund.slice(0, -3);
  const last = stem[stem.length - 1];
  return last !== undefined && stem[stem.length - 2] === last && 'bdgmnprt'.includes(last) ? stem.slice(0, -1) : stem;
}

const OPENING_WORDS = new Set(['please', 'just', 'so', 'and', 'also', 'then', 'claude', 'ok', 'okay', 'always']);
const MODALS = new Set(['should', 'must', 'will', "'ll"]);
const PROHIBITIONS = new Set(["don't", 'dont', 'never']);
/** Who a house rule is about: "this repo uses pnpm" says "use pnpm". */
const HOUSE_NOUNS = new Set(['repo', 'repository', 'project', 'codebase', 'app', 'service', 'monorepo', 'team']);
const house = (determiner: string, noun: string) => ['this', 'the', 'our'].includes(determiner) && HOUSE_NOUNS.has(trimEnd(noun, ','));
const TRAILING_WORDS = [['ever', 'again'], ['again'], ['anymore'], ['any', 'more'], ['from', 'now', 'on'], ['going', 'forward']];

/**
 * One canonical line for the lesson: prohibitions as "never …", "instead of" as ", not", the
 * politeness and the "always" of a rule dropped, first letter capitalised.
 */
export function describeLesson(lesson: string): { description: string; name: string } {
  let words = lesson.split(' ').filter((w) => w.length > 0);
  const low = (k: number) => (words[k] ?? '').toLowerCase().replaceAll('\u2019', "'").replaceAll('\u2018', "'");
  const starts = (...seq: string[]) => seq.every((w, k) => low(k) === w || low(k) === `${w},`);
  for (let changed = true; changed; ) {
    changed = true;
    if (OPENING_WORDS.has(trimEnd(low(0), ','))) words = words.slice(1);
    else if ((low(0) === 'you' || low(0) === 'claude') && MODALS.has(low(1))) words = words.slice(2);
    else if ((low(0) === 'you' || low(0) === 'claude') && (starts(low(0), 'need', 'to') || starts(low(0), 'have', 'to') || starts(low(0), 'ought', 'to'))) words = words.slice(3);
    else if (low(0) === "you've" && low(1) === 'got' && low(2) === 'to') words = words.slice(3);
    else if (low(0) === "you'll" || low(0) === "you'd") words = words.slice(1);
    else if (starts('i', 'want', 'you', 'to') || starts('i', 'need', 'you', 'to') || starts("i'd", 'like', 'you', 'to')) words = words.slice(4);
    else if (starts('i', 'would', 'like', 'you', 'to')) words = words.slice(5);
    else if ((low(0) === 'make' || low(0) === 'be') && low(1) === 'sure' && low(2) === 'that' && low(3) === 'you') words = words.slice(4);
    else if ((low(0) === 'make' || low(0) === 'be') && low(1) === 'sure' && (low(2) === 'to' || low(2) === 'you')) words = words.slice(3);
    else if (low(0) === 'we' && ['always', 'never', 'use', 'prefer', 'only', "don't"].includes(low(1))) words = words.slice(1);
    else if (low(0) === 'we' && low(1) === 'do' && low(2) === 'not') words = words.slice(1);
    else if (house(low(0), low(1)) && (low(2) === 'uses' || low(2) === 'prefers')) words = [low(2).slice(0, -1), ...words.slice(3)];
    else if (low(0) === 'in' && house(low(1), low(2)) && low(3) === 'we') words = words.slice(3);
    else if ((low(0) === 'here' || low(0) === 'here,') && low(1) === 'we') words = words.slice(1);
    else changed = false;
  }
  // Prohibitions: "don't X", "do not X", "never ever X", "avoid/stop X-ing", "not to X" → "never X".
  if (PROHIBITIONS.has(low(0))) words = ['never', ...words.slice(low(1) === 'ever' ? 2 : 1)];
  else if (low(0) === 'do' && low(1) === 'not') words = ['never', ...words.slice(low(2) === 'ever' ? 3 : 2)];
  else if (low(0) === 'not' && low(1) === 'to') words = ['never', ...words.slice(2)];
  else if (['avoid', 'stop', 'quit'].includes(low(0)) && gerund(low(1))) words = ['never', baseVerb(gerund(low(1))!) + rest(words[1]!), ...words.slice(2)];
  if (low(0) === 'never' && gerund(low(1))) words = ['never', baseVerb(gerund(low(1))!) + rest(words[1]!), ...words.slice(2)];
  // "X instead of Y", "X rather than Y" → "X, not Y".
  const joined: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const pair = `${low(k)} ${low(k + 1)}`;
    // "use pnpm here, not npm": in a rule, "here" is the project the rule is kept for.
    if (low(k) === 'here,' && joined.length > 0) {
      joined[joined.length - 1] = `${trimEnd(joined[joined.length - 1]!, ',')},`;
    } else if ((pair === 'instead of' || pair === 'rather than') && joined.length > 0) {
      joined[joined.length - 1] = `${trimEnd(joined[joined.length - 1]!, ',')},`;
      joined.push('not');
      k++;
    } else joined.push(words[k]!);
  }
  words = joined;
  for (const tail of TRAILING_WORDS) {
    if (words.length > tail.length && tail.every((w, k) => low(words.length - tail.length + k) === w)) words = words.slice(0, -tail.length);
  }
  // "never use moment, use date-fns instead" says what "use date-fns, not moment" says.
  const swapped = swapReplacement(words, low);
  const description = cap(capitalise((swapped ?? words).join(' ')), DESCRIPTION_CAP);
  const name = cap(trimEnd(description, '.!'), NAME_CAP);
  return { description, name };
}

function gerund(word: string): string | undefined {
  let k = 0;
  while (k < word.length && word.charCodeAt(k) >= 97 && word.charCodeAt(k) <= 122) k++;
  const letters = word.slice(0, k);
  return letters.length > 4 && letters.endsWith('ing') ? letters : undefined;
}

/** What follows a gerund's letters in its word ("adding," keeps its comma). */
function rest(word: string): string {
  let k = 0;
  while (k < word.length && ((word[k]! >= 'a' && word[k]! <= 'z') || (word[k]! >= 'A' && word[k]! <= 'Z'))) k++;
  return word.slice(k);
}

function swapReplacement(words: string[], low: (k: number) => string): string[] | undefined {
  if (low(0) !== 'never' || low(1) !== 'use') return undefined;
  let comma = -1;
  for (let k = 2; k < words.length; k++) {
    if (words[k]!.endsWith(',') || words[k]!.endsWith(';')) {
      comma = k;
      break;
    }
  }
  if (comma < 0 || words.slice(2, comma + 1).join(' ').length > 61) return undefined;
  let k = comma + 1;
  if (low(k) === 'we') k++;
  else if (house(low(k), low(k + 1)) && (low(k + 2) === 'uses' || low(k + 2) === 'prefers')) k += 2;
  if (low(k) !== 'use' && low(k) !== 'prefer' && low(k) !== 'uses' && low(k) !== 'prefers') return undefined;
  const replacement = words.slice(k + 1);
  if (replacement.length === 0 || replacement.some((w) => w.includes(',') || w.includes(';'))) return undefined;
  if (low(words.length - 1) === 'instead') replacement.pop();
  if (replacement.length === 0) return undefined;
  const replaced = [...words.slice(2, comma), trimEnd(words[comma]!, ',;')].filter((w, i, all) => !(w.toLowerCase() === 'here' && i === all.length - 1 && i > 0));
  return ['use', ...replacement.slice(0, -1), `${replacement[replacement.length - 1]},`, 'not', ...replaced];
}

function trimEnd(text: string, marks: string): string {
  let end = text.length;
  while (end > 0 && marks.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}
