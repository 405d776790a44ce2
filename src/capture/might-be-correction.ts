/**
 * The correction detector's first test, on its own so that the prompt hook can run it without
 * loading the detector: a prompt without any of these words cannot be a correction (each cue
 * family in ./correction-detector.ts contributes the words it cannot match without), and most
 * prompts have none of them. detectCorrection runs this same test first, so the hook and the
 * memories projector can never disagree about it. No imports, no regular expressions to compile.
 */

/** Nothing past the stored prompt's cap is ever looked at (PROMPT_CAP in events/hook-events.ts). */
export const INPUT_CAP = 20_000;

const STEMS = [
  'told you', 'told u', 'told ya', 'asked you', 'said', 'how many times', 'what did i', 'forget', 'forgot', 'wrong', 'incorrect', 'not right',
  'not correct', 'not what i', 'not how', 'not quite', 'not like that', 'actually', 'keep', 'always', 'still', 'again',
  'now on', 'here on', 'forward', 'henceforth', 'hereafter', 'future', 'next time', 'rule', 'convention', 'remember',
  'in mind', 'note for', 'memor', 'prefer', 'rather', 'like it', 'hate', 'dislike', "don't like", 'do not like',
  'like you', 'want you', 'need you', 'never', 'ever', 'circumstances', 'stop', 'quit', 'anymore', 'any more',
  "doesn't work", 'does not work', 'better to', 'best to', 'unless i', 'unless you', 'without asking', 'without checking',
  'without showing', 'without telling', 'without confirming', 'without my', 'without explicit', 'should not', "shouldn't",
  'must', 'not to', 'we want', 'should always', 'should never',
  'whenever', 'every time', 'each time', 'any time', "don't use", 'dont use', 'do not use', 'instead',
  'partir de', 'dorénavant', 'désormais', 'adelante', 'desde ahora', 'ab jetzt', 'nun an', 'ab sofort', "d'ora",
  'daqui', 'souviens', 'rappelle', 'recuerda', 'denk daran', 'merk dir', 'ricorda', 'lembre',
  // Typed in a hurry: "allways", "nver".
  'allways', 'alwyas', 'alwasy', 'awlays', 'alwys', 'nver', 'nevr', 'neevr',
  // House rules: "we use …", "we don't do …", "this repo uses …", "…-only".
  'we use', "we don't", 'we dont', 'we do not', "we're using", 'we are using', 'this repo', 'this project', 'this codebase',
  'our repo', 'our codebase', '-only', 'when i say', 'if i say', 'when i ask', 'if i ask', 'when i type', 'when i tell you',
];

/**
 * The stems by their first two characters' codes: one pass over the text asks, at each place,
 * only the stems that can start there, instead of a pass per stem (a rebuild folds every prompt
 * of the log through this; 120 `includes` each was a tenth of it). Same answer as
 * `STEMS.some((stem) => lower.includes(stem))`: test/might-be-correction.test.ts.
 */
const STEMS_BY_PAIR: ReadonlyMap<number, readonly string[]> = (() => {
  const byPair = new Map<number, string[]>();
  for (const stem of STEMS) {
    const pair = stem.charCodeAt(0) * 0x10000 + stem.charCodeAt(1);
    byPair.set(pair, [...(byPair.get(pair) ?? []), stem]);
  }
  return byPair;
})();

/** Whether `lower` holds any of the stems. */
export function holdsStem(lower: string): boolean {
  for (let i = 0; i + 1 < lower.length; i++) {
    const stems = STEMS_BY_PAIR.get(lower.charCodeAt(i) * 0x10000 + lower.charCodeAt(i + 1));
    if (stems) for (const stem of stems) if (lower.startsWith(stem, i)) return true;
  }
  return false;
}

/** The cue stems, for the test that holds holdsStem to `includes`. */
export const CORRECTION_STEMS: readonly string[] = STEMS;

/** Whether `prompt` could be a correction at all. */
export function mightBeCorrection(prompt: string): boolean {
  const text = prompt.length > INPUT_CAP ? prompt.slice(0, INPUT_CAP) : prompt;
  const lower = text.toLowerCase().replaceAll('\u2019', "'").replaceAll('\u2018', "'").replaceAll('\u02bc', "'");
  if (holdsStem(lower)) return true;
  // "no, …", "nooo", "nope", "nah" as words, and "use X, not Y" said on its own.
  let no = false;
  let not = false;
  let use = false;
  for (const word of words(lower)) {
    if (word === 'nope' || word === 'nah' || (word.length >= 2 && word[0] === 'n' && [...word.slice(1)].every((c) => c === 'o'))) no = true;
    else if (word === 'not') not = true;
    else if (word === 'use' || word === 'uses' || word === "it's" || word === 'its') use = true;
  }
  return no || (not && (use || lower.includes('it is')));
}

/** The words of lowercased text, split at anything but letters, digits and apostrophes. */
function* words(lower: string): Generator<string> {
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 32;
    // Above ASCII, letters are in a word; spaces, dashes, quotes and other punctuation are not.
    const punctuation = (code >= 0x80 && code <= 0xbf) || (code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x303f);
    const inWord = (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 39 || (code > 127 && !punctuation);
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      yield lower.slice(start, i);
      start = -1;
    }
  }
}
