import { stemmer } from 'stemmer';

/**
 * The content words of a prompt or a memory, for lexical recall (DESIGN.md "Recall"). One
 * analyser for both sides, so a word indexed is a word that can be asked for. Hook-safe: it
 * imports only the `stemmer` package (Porter's algorithm, no dependencies; the hook bundle holds it).
 *
 * - Lower case, accents dropped on Latin letters; NFKC so full-width letters fold.
 * - Stop words: English function words and the words a question to an agent is made of
 *   ("how do we…", "remind me what…"), which say nothing about which memory is meant.
 * - Words folded by Porter's whole algorithm: "installs" = "install", "conversations" =
 *   "conversation", "deploying" = "deploy". Measured on real conversations (LoCoMo's dev half,
 *   scripts/eval-locomo.ts), stemming is the largest single gain of the lexical ranker; the
 *   near-duplicate matcher keeps its lighter steps 1 and 5 (similarity.ts says why), since merging
 *   two memories costs more than ranking one a place too high.
 * - Code identifiers are split on camelCase, snake_case, kebab-case, dots and slashes, and the
 *   whole identifier is kept too: `fetchUserData` gives fetchuserdata, fetch, user, data, so a
 *   prompt naming the identifier matches it exactly and a prompt naming its parts still matches.
 * - Single letters are dropped; numbers are kept (node 18 vs node 20).
 */

/** The most distinct words one text gives: a 10,000-word prompt asks with its first ones. */
export const MAX_QUERY_WORDS = 256;
/**
 * Longest word kept, in UTF-8 bytes: a longer identifier is kept only as its parts, and a longer
 * part (a hash, a blob) not at all. It bounds a line of the index's dictionary (lexical-index.ts).
 */
export const MAX_WORD_BYTES = 64;
/** Recall needs at least this many content words: one word says too little about the topic. */
export const MIN_QUERY_WORDS = 2;

// Runs of letters, digits and the marks that hold identifiers and paths together.
const RAW_TOKEN = /[\p{L}\p{N}\p{M}_]+(?:[./\-:@#][\p{L}\p{N}\p{M}_]+)*/gu;
const INNER_APOSTROPHE = /(?<=\p{L})['’](?=\p{L})/gu;
const PART = /[\p{L}\p{N}\p{M}]+/gu;
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const LATIN_MARKS = /(?<=[A-Za-z])[\u0300-\u036f]+/g;
const ASCII_WORD = /^[a-z]+$/;
const DIGITS = /^\p{N}+$/u;

/** Every content word of `text`, in order, repeats kept (a document's term frequencies). */
export function analyze(text: string): string[] {
  const words: string[] = [];
  const folded = text.normalize('NFKD').replace(LATIN_MARKS, '').normalize('NFKC').replace(INNER_APOSTROPHE, '');
  for (const match of folded.matchAll(RAW_TOKEN)) {
    const raw = match[0];
    const parts: string[] = [];
    for (const piece of raw.matchAll(PART)) {
      for (const part of piece[0].split(CAMEL)) {
        const word = part.toLowerCase();
        if (word.length < 2 && !DIGITS.test(word)) continue;
        if (STOP_WORDS.has(word) || Buffer.byteLength(word) > MAX_WORD_BYTES) continue;
        parts.push(ASCII_WORD.test(word) ? stemmer(word) : word);
      }
    }
    const whole = raw.toLowerCase();
    // An identifier (more than one part) is also a word of its own, unstemmed.
    const identifier = parts.length > 1 || (parts.length === 1 && whole !== parts[0] && isIdentifier(raw));
    if (identifier && Buffer.byteLength(whole) <= MAX_WORD_BYTES) words.push(whole);
    words.push(...parts);
  }
  return words;
}

/** The distinct content words of a prompt, in order of first use, at most MAX_QUERY_WORDS. */
export function queryWords(text: string): string[] {
  const seen = new Set<string>();
  for (const word of analyze(text)) {
    seen.add(word);
    if (seen.size >= MAX_QUERY_WORDS) break;
  }
  return [...seen];
}

/** Whether a prompt with these content words is worth a recall at all. */
export function canRecall(words: readonly string[]): boolean {
  return words.length >= MIN_QUERY_WORDS;
}

function isIdentifier(raw: string): boolean {
  return /[_./\-:@#]/.test(raw) || /\p{Ll}\p{Lu}/u.test(raw);
}

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    // Function words.
    'a about above after again against all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing done down during each either else etc ever every few for from further had has have ' +
    'having he her here hers herself him himself his how however i if in into is it its itself just may me might more most ' +
    'must my myself of off on once or other our ours ourselves out over own per same shall she should so some such than ' +
    'that the their theirs them themselves then there these they this those though through thus to too under until up upon ' +
    'us very via was we were what when whenever where whether which while who whom whose why will with within would yet ' +
    'you your yours yourself yourselves ' +
    // What questions to an agent are made of.
    'anything something thing things stuff remind remember recall tell know knew think thought say said mean meant ' +
    'please thanks thank okay ok yes hey hi hello let lets get got go going want wanted need needed like look again ' +
    'again one ones way really actually still already maybe sure right now ' +
    // Contractions, their apostrophe dropped.
    'im ive id ill youre youve theyre weve isnt arent wasnt werent dont doesnt didnt cant couldnt wont wouldnt shouldnt ' +
    'hasnt havent hadnt thats whats wheres hows theres heres'
  ).split(' '),
);
