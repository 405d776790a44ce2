/**
 * Token-set similarity of memories (DESIGN.md "Scores": near-duplicates by Jaccard on name +
 * description ≥ 0.6; "Capture": the same lesson said again, same type and description-token
 * Jaccard ≥ 0.6, reinforces instead of making a second memory). Pure and deterministic, no
 * dependencies, so hooks may import it and a replay decides the same.
 *
 * The tokenizer, and why:
 * - NFKC-compatible folding (full-width letters, ligatures) and lower case without a locale, so
 *   the result never depends on the machine. Accents are dropped on Latin, Greek and Cyrillic
 *   letters only ("café" = "cafe"); elsewhere a combining mark is part of the letter (Devanagari
 *   vowel signs) and dropping it would merge different words.
 * - Words are runs of letters, digits and combining marks in any script; everything else splits
 *   (`feedback_testing` → feedback, testing; `node.js` → node, js). An apostrophe inside a word
 *   is dropped ("don't" → dont), so negations survive as words.
 * - Chinese and Japanese are written without spaces: their runs become overlapping character
 *   bigrams (as Lucene's CJK analyzer does), not one token per sentence. No dictionary segmenter
 *   (Intl.Segmenter): its output changes with the ICU version, and results must not.
 * - camelCase is not split: identifiers and product names (JavaScript, GitHub) stay whole, since
 *   splitting them matches "JavaScript" with "Java" more often than it helps.
 * - Stop words: a short English list of function words. Negations and polarity words (not, no,
 *   never, always, only, dont) are kept: "always use pnpm" and "never use pnpm" are different
 *   lessons and must not reinforce each other.
 * - Light stemming: Porter's steps 1 and 5 only (plurals, -ed, -ing, a final -e, a double l), on
 *   words of ASCII letters. Re-wordings of one lesson mostly differ in inflection ("runs the
 *   tests" / "running tests"); Porter's middle steps strip derivational suffixes and merge words
 *   that mean different things (general / generate / generic), which for a decision that merges
 *   memories costs more than it finds.
 * - Single letters are dropped (they carry no topic), digits are kept (node 18 vs node 20).
 */

export interface TokenSetItem {
  readonly id: string;
  readonly tokens: readonly string[] | ReadonlySet<string>;
}

export interface SimilarPair<T> {
  /** Of the two, the one whose id sorts first (then the earlier in the input). */
  readonly a: T;
  readonly b: T;
  readonly similarity: number;
}

export interface BestMatch<T> {
  readonly item: T;
  readonly similarity: number;
}

/** DESIGN.md's threshold for both near-duplicates and "the same lesson again". */
export const DUPLICATE_THRESHOLD = 0.6;

/** Distinct tokens of a text, in the order they first appear. */
export function tokenize(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(FOLDED_MARKS, '')
    .normalize('NFKC')
    .replace(INNER_APOSTROPHE, '')
    .toLowerCase();
  const seen = new Set<string>();
  for (const match of folded.matchAll(WORD)) {
    const word = match[0];
    if (CJK_RUN_START.test(word)) {
      if (word.length === 1) seen.add(word);
      else for (let i = 0; i + 1 < word.length; i++) seen.add(word.slice(i, i + 2));
      continue;
    }
    if (STOP_WORDS.has(word)) continue;
    if (word.length === 1 && !DIGIT.test(word)) continue;
    seen.add(ASCII_WORD.test(word) ? stem(word) : word);
  }
  return [...seen];
}

/** The tokens near-duplicate detection compares: name and description together. */
export function memoryTokens(memory: { readonly name: string; readonly description: string }): string[] {
  return tokenize(`${memory.name}\n${memory.description}`);
}

/** |a ∩ b| / |a ∪ b| over distinct tokens; 0 when both are empty (nothing says they agree). */
export function jaccard(a: readonly string[] | ReadonlySet<string>, b: readonly string[] | ReadonlySet<string>): number {
  const setA = toSet(a);
  const setB = toSet(b);
  if (setA.size === 0 && setB.size === 0) return 0;
  const [small, large] = setA.size <= setB.size ? [setA, setB] : [setB, setA];
  let shared = 0;
  for (const token of small) if (large.has(token)) shared++;
  return shared / (setA.size + setB.size - shared);
}

/**
 * Every pair with Jaccard ≥ threshold, without comparing every pair: an inverted index over
 * each set's rarest tokens (prefix filtering, as in the All-Pairs similarity join). Two sets
 * with Jaccard ≥ t share at least ⌈t·|x|⌉ of x's tokens, so with tokens ordered rarest first,
 * their first |x| − ⌈t·|x|⌉ + 1 tokens must meet; a set also can only match sets of at least
 * t times its size. Candidates found that way are then measured exactly. Pairs that share no
 * token are never reported, whatever the threshold.
 *
 * Order: most similar first, then by the ids of a and b, then by input position, so the same
 * input always gives the same list.
 */
export function nearDuplicates<T extends TokenSetItem>(items: readonly T[], threshold: number = DUPLICATE_THRESHOLD): SimilarPair<T>[] {
  const t = Math.min(1, Math.max(0, threshold));
  const sets = items.map((item) => [...toSet(item.tokens)]);
  const frequency = new Map<string, number>();
  for (const set of sets) for (const token of set) frequency.set(token, (frequency.get(token) ?? 0) + 1);
  const rarestFirst = (x: string, y: string): number => frequency.get(x)! - frequency.get(y)! || (x < y ? -1 : x > y ? 1 : 0);
  for (const set of sets) set.sort(rarestFirst);
  const members = sets.map((set) => new Set(set));

  // Smallest sets first, so every candidate already indexed is no larger than the probe.
  const order = sets.map((_, index) => index).sort((x, y) => sets[x]!.length - sets[y]!.length || x - y);
  const index = new Map<string, number[]>();
  const pairs: Array<{ x: number; y: number; similarity: number }> = [];
  for (const x of order) {
    const set = sets[x]!;
    const size = set.length;
    if (size === 0) continue;
    // The epsilon keeps t·n from rounding up past a whole number (0.7 × 10 = 7.000000000000001).
    const prefix = Math.min(size, size - Math.ceil(t * size - 1e-9) + 1);
    const minSize = t * size - 1e-9;
    const candidates = new Set<number>();
    for (let i = 0; i < prefix; i++) {
      for (const y of index.get(set[i]!) ?? []) if (sets[y]!.length >= minSize) candidates.add(y);
    }
    for (const y of candidates) {
      let shared = 0;
      for (const token of sets[y]!) if (members[x]!.has(token)) shared++;
      if (shared === 0) continue;
      const similarity = shared / (size + sets[y]!.length - shared);
      if (similarity >= threshold) pairs.push({ x, y, similarity });
    }
    for (let i = 0; i < prefix; i++) {
      const token = set[i]!;
      const list = index.get(token);
      if (list) list.push(x);
      else index.set(token, [x]);
    }
  }

  return pairs
    .map(({ x, y, similarity }) => (compareItems(items, x, y) <= 0 ? { i: x, j: y, similarity } : { i: y, j: x, similarity }))
    .sort((p, q) => q.similarity - p.similarity || compareItems(items, p.i, q.i) || compareItems(items, p.j, q.j))
    .map(({ i, j, similarity }) => ({ a: items[i]!, b: items[j]!, similarity }));
}

/**
 * The item most similar to the candidate at or above the threshold, or undefined. When the
 * candidate has a type, only items of the same type are considered (a feedback lesson never
 * reinforces a project note). Ties go to the id that sorts first, then the earlier item.
 */
export function bestMatch<T extends TokenSetItem & { readonly type?: string | undefined }>(
  candidate: { readonly tokens: readonly string[] | ReadonlySet<string>; readonly type?: string | undefined },
  items: readonly T[],
  threshold: number = DUPLICATE_THRESHOLD,
): BestMatch<T> | undefined {
  const tokens = toSet(candidate.tokens);
  if (tokens.size === 0) return undefined;
  let best: { index: number; similarity: number } | undefined;
  items.forEach((item, index) => {
    if (candidate.type !== undefined && item.type !== candidate.type) return;
    const similarity = jaccard(tokens, item.tokens);
    if (similarity === 0 || similarity < threshold) return;
    if (!best || similarity > best.similarity || (similarity === best.similarity && compareItems(items, index, best.index) < 0)) {
      best = { index, similarity };
    }
  });
  return best && { item: items[best.index]!, similarity: best.similarity };
}

function compareItems(items: readonly TokenSetItem[], x: number, y: number): number {
  const idX = items[x]!.id;
  const idY = items[y]!.id;
  return idX < idY ? -1 : idX > idY ? 1 : x - y;
}

function toSet(tokens: readonly string[] | ReadonlySet<string>): ReadonlySet<string> {
  return tokens instanceof Set ? tokens : new Set(tokens as readonly string[]);
}

/** Accents of Latin, Greek and Cyrillic letters, after NFKD has split them off. */
const FOLDED_MARKS = /(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]\p{M}*)\p{M}+/gu;
const INNER_APOSTROPHE = /(?<=\p{L})['’](?=\p{L})/gu;
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30fc';
/** A run of Chinese or Japanese characters, or a run of other letters, digits and marks. */
const WORD = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+`, 'gu');
const CJK_RUN_START = new RegExp(`^[${CJK}]`, 'u');
const DIGIT = /^\p{N}$/u;
const ASCII_WORD = /^[a-z]+$/;

/** English function words. Negations and always/never/only are deliberately not here. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be been before being below between both but by ' +
    'can could did do does doing down during each either etc few for from further had has have having he her here hers ' +
    'herself him himself his how however i if in into is it its itself just may me might more most must my myself of off ' +
    'on once or other our ours ourselves out over own per same shall she should so some such than that the their theirs ' +
    'them themselves then there these they this those though through thus to too under until up upon us very via was we ' +
    'were what when whenever where whether which while who whom whose why will with within would yet you your yours ' +
    'yourself yourselves'
  ).split(' '),
);

/** Porter's steps 1a, 1b, 1c, 5a and 5b, for words of ASCII letters (see the file comment). */
export function stem(word: string): string {
  if (word.length <= 2) return word;
  let w = word;
  // 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  // 1b
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
    if (suffix > 0 && hasVowel(w.slice(0, -suffix))) {
      w = w.slice(0, -suffix);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (endsWithDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
      else if (measure(w) === 1 && endsCvc(w)) w += 'e';
    }
  }
  // 1c
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  // 5a
  if (w.endsWith('e')) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) w = base;
  }
  // 5b
  if (measure(w) > 1 && w.endsWith('ll')) w = w.slice(0, -1);
  return w;
}

function isConsonant(w: string, i: number): boolean {
  const c = w[i]!;
  if ('aeiou'.includes(c)) return false;
  if (c === 'y') return i === 0 || !isConsonant(w, i - 1);
  return true;
}

/** m in Porter's [C](VC)^m[V]. */
function measure(w: string): number {
  let m = 0;
  let i = 0;
  while (i < w.length && isConsonant(w, i)) i++;
  while (i < w.length) {
    while (i < w.length && !isConsonant(w, i)) i++;
    if (i >= w.length) break;
    while (i < w.length && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsWithDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant at the end, the last not w, x or y (hop, not hoop or box). */
function endsCvc(w: string): boolean {
  const n = w.length;
  return n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !'wxy'.includes(w[n - 1]!);
}
