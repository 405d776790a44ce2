/**
 * The correction detector (DESIGN.md "Capture → Correction detector"): finds, without an LLM, a
 * prompt in which the person corrects the agent or states a rule to keep ("no, I told you…",
 * "that's wrong…", "remember that…", "from now on…", "always/never…"), and cuts the lesson out of
 * it.
 *
 * It runs twice on the same text: in the UserPromptSubmit hook (to say in one line that a lesson
 * was noted) and in the memories projector, on the prompt as the log stores it (redacted, capped),
 * to make or reinforce the memory. So it is a pure, deterministic function of that text, linear in
 * its length, and imports nothing that costs the hook a module load. Cues are phrase tables over
 * words (./words.ts), not regular expressions: compiling those is what would cost a hook most.
 *
 * Precision first: a cue counts only at the start of a sentence the person typed (never inside
 * code, quotes, pasted logs or wrapper elements), never in a question or a hypothetical, and only
 * when what follows reads as a rule with some content. A correction that says nothing durable
 * ("no, wrong, try again") is not a lesson.
 */
import type { MemoryType } from '../events/memory-kinds.js';
import {
  ABOUT_THE_PERSON, ALWAYS_NEVER, ARTICLES, ASKED_NEXT, ASKED_YOU, BASE_FORMS_IN_ED, CONDITION, CONTRAST,
  CONTRAST_OPENER, DEIXIS, FILLER_MARKS, FILLER_PHRASES, FILLER_WORDS, FROM_NOW_ON, GLOBAL, HABIT, HOUSE_NOT,
  HOUSE_SUBJECT, HOUSE_VERB, HYPOTHETICAL, INSTEAD_OPENER, INSTEAD_USE, INTRO_ALWAYS, INTRO_FROM_NOW_ON,
  INTRO_REMEMBER, INTRO_TOLD_YOU, IN_FUTURE, JUST_DONE, KEEP_IN_MIND, MACHINE_TEXT, MODAL, MOMENT, NEGATING,
  NO, NOT_CONTRASTED, NOT_IMPERATIVE, NOT_PREFERENCES, NO_ADDRESSED, NO_MARKS, PAST_OR_REPORT, POLITE,
  PREFERENCE, PROHIBITION, PRONOUNS, REMEMBER, REMEMBER_CUT_MARKS, REMEMBER_NEXT, REPORTED, RETRY, RULE_VERB,
  STEERING, STOPWORDS, STRONG_RULE, SUBJECTS, TASK_START, THIS_PROJECT, TOLD_AGAIN, TOLD_AGAIN_PHRASES,
  TOLD_YOU, TRAILING_AGAIN, TRAILING_DURABLE, TRAILING_NOISE, TRAILING_REMEMBER, WANTS_YOU, WE_DONT,
  WE_SHOULD_NOT, WHEN_I_SAY, WHY_AGAIN, WRONG, YOU_MODAL,
} from './correction-cues.js';
import { cleanLesson, describeLesson } from './lesson-text.js';
import { INPUT_CAP, mightBeCorrection } from './might-be-correction.js';
import { proseSentences, type Sentence } from './prose-sentences.js';
import { hasPhrase, isLetters, phraseAt, phraseEndingAt, tokenize, type Word } from './words.js';

/** Which cue fired. */
export type CorrectionKind =
  | 'told-you' // "I told you to…", "like I said, …", "how many times…? …"
  | 'wrong' // "that's wrong, …", "why do you keep…? …"
  | 'no' // "no, use …", "nope. …", "actually, we …"
  | 'remember' // "remember that…", "don't forget to…", "…, remember that"
  | 'from-now-on' // "from now on…", "going forward…", "…in the future", "rule: …"
  | 'always-never' // "always…", "never…", "don't … again", "we never…", "whenever …, …"
  | 'stop' // "stop adding…"
  | 'preference' // "I prefer…", "I'd rather…", "I want you to always…"
  | 'instead' // "use X, not Y" on its own, "don't use X, use Y"
  | 'house-rule'; // "this repo uses Y, not X", "we don't do X", "in this codebase we use Y"

export interface Correction {
  kind: CorrectionKind;
  /** feedback: how to work; user: about the person (role, preferences, knowledge). */
  type: Extract<MemoryType, 'feedback' | 'user'>;
  /** global only when the prompt says the rule holds in all projects, or it is about the person. */
  scope: 'project' | 'global';
  /** The rule in the person's words, cleaned: one line, no markup, at most LESSON_CAP chars. */
  lesson: string;
  /** A short title, at most NAME_CAP chars. */
  name: string;
  /** The canonical one-line form MEMORY.md lists, at most DESCRIPTION_CAP chars. */
  description: string;
}

interface Found {
  kind: CorrectionKind;
  /** Where the lesson starts and ends in the sentence's text. */
  from: number;
  to: number;
  sentence: Sentence;
  /** "I told you not to X": the lesson is "don't X". */
  negate?: boolean;
  /** A condition kept in front of the lesson: "when you write tests, ". */
  condition?: string;
  /** Whether the lesson is about the person; when unset, read from the lesson's first word. */
  user?: boolean;
  /** The cue asks for the stricter filters ("here" and a bare pronoun make it meaningless). */
  weak?: boolean;
}

/** A sentence with its words. */
interface Read {
  sentence: Sentence;
  words: Word[];
}

/** The correction `prompt` makes, or null. Pure: the same text always gives the same answer. */
export function detectCorrection(prompt: string): Correction | null {
  if (typeof prompt !== 'string' || prompt.length === 0) return null;
  const text = prompt.length > INPUT_CAP ? prompt.slice(0, INPUT_CAP) : prompt;
  if (!mightBeCorrection(text) || isMachineText(text.toLowerCase())) return null;
  const sentences = proseSentences(text).map((sentence) => ({ sentence, words: tokenize(sentence.cue) }));
  if (sentences.length === 0) return null;
  const taskFirst = phraseAt(sentences[0]!.words, skipFiller(sentences[0]!.words, 0), TASK_START) >= 0;
  let pending: CorrectionKind | undefined;
  const retry = sentences.some((s) => hasPhrase(s.words, RETRY));
  for (let k = 0; k < sentences.length; k++) {
    const read = sentences[k]!;
    if (read.sentence.intro >= 0) {
      // A list's items are the person's rules only when its introduction said so ("From now
      // on:"); under "Here's our CONTRIBUTING.md:" they are material to work on.
      const kind = introKind(sentences[read.sentence.intro]!);
      if (!kind) continue;
      const from = skipFiller(read.words, 0);
      const correction = toCorrection({ kind, from: startOf(read, from), to: trimTrailing(read, read.words.length), sentence: read.sentence });
      if (correction) return correction;
      continue;
    }
    // A bare "always…" in the middle of a long prompt, or after a task was set, is the task's spec.
    const edge = sentences.length <= 4 || k < 2 || k >= sentences.length - 2;
    const bareAllowed = edge && (k === 0 || !taskFirst);
    const result = readSentence(read, { pending, bareAllowed, previous: sentences[k - 1], single: sentences.length <= 2 && k === 0, alone: sentences.length === 1, retry });
    if (result.found) {
      const correction = toCorrection(result.found);
      if (correction) return correction;
    }
    pending = result.pending;
  }
  return null;
}

function isMachineText(lower: string): boolean {
  const start = lower.trimStart();
  if (MACHINE_TEXT.some((opening) => start.startsWith(opening))) return true;
  // A slash command ("/review …") or bash mode ("!git log"); a path ("/home/…") is neither.
  return /^[/!][a-z][\w:.-]*(?:\s|$)/.test(start);
}

/** What an introduction to a list of rules says about them, if it says they are to be kept. */
function introKind(intro: Read): CorrectionKind | undefined {
  if (intro.sentence.question) return undefined;
  if (hasPhrase(intro.words, INTRO_FROM_NOW_ON)) return 'from-now-on';
  if (hasPhrase(intro.words, INTRO_REMEMBER)) return 'remember';
  if (hasPhrase(intro.words, INTRO_TOLD_YOU)) return 'told-you';
  if (hasPhrase(intro.words, INTRO_ALWAYS)) return 'always-never';
  return undefined;
}

interface Context {
  pending: CorrectionKind | undefined;
  /** The prompt is this one sentence. */
  alone: boolean;
  /** The prompt asks to try again: its reminders are for the retry. */
  retry: boolean;
  bareAllowed: boolean;
  previous: Read | undefined;
  single: boolean;
}

function readSentence(read: Read, ctx: Context): { found?: Found; pending?: CorrectionKind } {
  const { sentence, words } = read;
  let i = skipFiller(words, 0);
  const afterPolite = phraseAt(words, i, POLITE);
  const polite = afterPolite >= 0;
  if (polite) i = afterPolite;
  // Openers: "no, I told you, …" may chain.
  let opener: CorrectionKind | undefined;
  let explicit = false;
  let negate = false;
  for (;;) {
    const told = toldYouAt(words, i);
    if (told >= 0) {
      opener = 'told-you';
      i = told;
      // "I told you to …", "… not to …", "… that …", "…: …" say the lesson right here.
      const next = words[i]?.w;
      if (next === ':' || next === 'to' || next === 'that') {
        // "I said that in the PR already": "that" is what was said, and nothing follows it.
        if (next === 'that' && REPORTED.has(words[i + 1]?.w ?? '')) return {};
        explicit = true;
        i += 1;
        break;
      }
      if (next === 'not' && words[i + 1]?.w === 'to') {
        explicit = true;
        negate = true;
        i += 2;
        break;
      }
      i = skipFiller(words, i);
      continue;
    }
    const wrong = phraseAt(words, i, WRONG);
    if (wrong >= 0) {
      if (opener !== 'told-you') opener = 'wrong';
      i = skipFiller(words, wrong);
      continue;
    }
    if (phraseAt(words, i, WHY_AGAIN) >= 0) return { pending: 'wrong' };
    const no = noAt(words, i);
    if (no >= 0) {
      opener ??= 'no';
      i = skipFiller(words, no);
      continue;
    }
    break;
  }
  const rest = i < words.length;
  if (opener && !rest) return { pending: opener };
  if (sentence.question && !polite) return {};
  if (explicit) {
    if (i >= words.length) return {};
    return { found: { kind: 'told-you', from: startOf(read, i), to: sentence.text.length, sentence, negate } };
  }
  const conditional = phraseAt(words, i, CONDITION);
  if (conditional < 0 && phraseAt(words, i, HYPOTHETICAL) >= 0) return {};

  // "when you write tests, always use vitest": the condition stays with the rule.
  let condition: string | undefined;
  let habit = false;
  if (conditional >= 0) {
    let comma = conditional;
    while (comma < words.length && words[comma]!.w !== ',') comma++;
    if (comma >= words.length) return {};
    condition = sentence.text.slice(words[i]!.start, words[comma]!.start).trim();
    habit = HABIT.has(words[i]!.w) || phraseAt(words, i, WHEN_I_SAY) >= 0;
    i = skipFiller(words, comma);
  }

  const durable = readDurable(read, i, ctx, condition !== undefined, opener !== undefined || ctx.pending !== undefined);
  if (durable) return { found: { ...durable, condition, weak: durable.weak || (opener !== undefined && durable.kind === 'instead') } };
  if (condition !== undefined) {
    if (!habit || !imperativeAt(words, i)) return {};
    return { found: { kind: 'always-never', from: startOf(read, i), to: trimTrailing(read, words.length), sentence, condition } };
  }
  const ruled = strongRuleAt(words, i) || hasContrast(words, i);
  if (opener) return ruled ? { found: { kind: opener, from: startOf(read, i), to: sentence.text.length, sentence, weak: true } } : {};
  if (ctx.pending && ruled) return { found: { kind: ctx.pending, from: startOf(read, i), to: sentence.text.length, sentence, weak: true } };
  return {};
}

/** A cue that by itself says the rule is to be kept, at word `i` or at the sentence's end. */
function readDurable(read: Read, i: number, ctx: Context, conditioned: boolean, opened = false): Omit<Found, 'condition'> | undefined {
  const { sentence, words } = read;
  const end = sentence.text.length;
  const fromNowOn = phraseAt(words, i, FROM_NOW_ON);
  if (fromNowOn >= 0 && !(words[i + 1]?.w === 'forward' && words[fromNowOn]?.w === 'with')) {
    return { kind: 'from-now-on', from: startOf(read, skipFiller(words, fromNowOn)), to: end, sentence };
  }
  const inFuture = phraseAt(words, i, IN_FUTURE);
  if (inFuture >= 0) {
    // "next time, read the tests first" rules; "next time the deploy fails, …" and "in the
    // future we might …" do not.
    const from = skipFiller(words, inFuture);
    return imperativeAt(words, from) ? { kind: 'from-now-on', from: startOf(read, from), to: end, sentence } : undefined;
  }
  let remember = phraseAt(words, i, REMEMBER);
  // "that looks good but keep in mind …": the reminder after the reply.
  if (remember < 0 && ctx.bareAllowed) {
    for (let k = i + 1; k < words.length - 3 && remember < 0; k++) {
      if (words[k]!.w === 'but' && phraseAt(words, k + 1, KEEP_IN_MIND) >= 0) remember = phraseAt(words, k + 1, KEEP_IN_MIND);
    }
  }
  if (remember >= 0) return readRemember(read, remember, ctx);
  if (phraseAt(words, i, PREFERENCE) >= 0) return { kind: 'preference', from: startOf(read, i), to: end, sentence, user: true };
  if (phraseAt(words, i, WANTS_YOU) >= 0) return { kind: 'preference', from: startOf(read, i), to: end, sentence, user: false };
  const alwaysNever = readAlwaysNever(read, i, ctx, conditioned);
  if (alwaysNever) return alwaysNever;
  const house = readHouseRule(read, i, ctx, opened);
  if (house) return house;
  if (ctx.bareAllowed && (words[i]?.w === 'stop' || words[i]?.w === 'quit')) {
    const gerund = words[i + 1];
    // "stop running the tests" halts something now; "stop adding emojis" and "stop wrapping
    // every function" are habits.
    const object = ['the', 'this', 'that', 'it', 'my', 'your', 'these', 'those'].includes(words[i + 2]?.w ?? '');
    const habit = words.slice(i + 2, i + 16).some((w) => ['every', 'all', 'any', 'always', 'each', 'much', 'many'].includes(w.w));
    const ing = gerund !== undefined && !gerund.punct && gerund.w.endsWith('ing') && isLetters(gerund.w);
    if (ing && !['working', 'everything', 'nothing', 'something'].includes(gerund.w) && (!object || habit)) {
      return { kind: 'stop', from: startOf(read, i), to: trimTrailing(read, words.length), sentence };
    }
  }
  // "use pnpm from now on", "don't add emojis again", "…, remember that"
  const last = lastWord(words);
  if (phraseEndingAt(words, last, TRAILING_DURABLE) > i && phraseAt(words, i, RULE_VERB) >= 0) {
    return { kind: 'from-now-on', from: startOf(read, i), to: trimTrailing(read, words.length), sentence };
  }
  if (phraseEndingAt(words, last, TRAILING_AGAIN) > i && phraseAt(words, i, PROHIBITION) >= 0) {
    return { kind: 'always-never', from: startOf(read, i), to: trimTrailing(read, words.length), sentence };
  }
  const lastOrParen = words[last - 1]?.w === ')' ? last - 1 : last;
  const remembered = phraseEndingAt(words, lastOrParen, TRAILING_REMEMBER);
  if (remembered > i + 1 && REMEMBER_CUT_MARKS.has(words[remembered - 1]!.w)) {
    return { kind: 'remember', from: startOf(read, i), to: words[remembered - 1]!.start, sentence };
  }
  // "don't use moment, use date-fns (instead)": a prohibition with its replacement.
  const instead = phraseAt(words, i, INSTEAD_OPENER);
  if (instead >= 0) {
    for (let k = instead + 1; k < words.length && words[k]!.start - words[instead]!.start <= 60; k++) {
      if ((words[k]!.w === ',' || words[k]!.w === ';') && phraseAt(words, k + 1, INSTEAD_USE) >= 0 && phraseAt(words, k + 1, INSTEAD_USE) < words.length) {
        return { kind: 'instead', from: startOf(read, i), to: trimTrailing(read, words.length), sentence, weak: true };
      }
    }
  }
  // "Do not use global state" said on its own: a standing prohibition.
  if (ctx.alone && instead >= 0 && instead < words.length && !words[instead]!.punct) {
    return { kind: 'always-never', from: startOf(read, i), to: trimTrailing(read, words.length), sentence, weak: true };
  }
  // "use vitest, not jest" said on its own.
  if (ctx.single && phraseAt(words, i, CONTRAST_OPENER) >= 0 && hasContrast(words, i)) {
    return { kind: 'instead', from: startOf(read, i), to: end, sentence, weak: true };
  }
  return undefined;
}

function readRemember(read: Read, afterCue: number, ctx: Context): Omit<Found, 'condition'> | undefined {
  const { sentence, words } = read;
  const restFrom = skipFiller(words, afterCue);
  // "Use pnpm, not npm. Remember that." points back at the sentence before.
  const rest = words.slice(restFrom);
  const pointer = (w: Word) => (w.punct ? w.w === '.' || w.w === '!' : w.w === 'that' || w.w === 'this' || w.w === 'it' || w.w === 'please');
  if (rest.filter((w) => !w.punct).length <= 2 && rest.every(pointer)) {
    const previous = ctx.previous;
    if (!previous || previous.sentence.question) return undefined;
    return { kind: 'remember', from: startOf(previous, skipFiller(previous.words, 0)), to: previous.sentence.text.length, sentence: previous.sentence };
  }
  // "keep in mind …" says what follows is to be kept, whatever it starts with.
  const keep = words[afterCue - 1]?.w === 'mind';
  if (!keep && phraseAt(words, afterCue, REMEMBER_NEXT) < 0) return undefined;
  // "Let's try this again. Remember to run pnpm start": a reminder for the retry at hand.
  if (words[afterCue]?.w === 'to' && ctx.retry) return undefined;
  const next = words[afterCue]?.w;
  const skipWord = next === 'that' || next === 'to' || (next === 'this' && words[afterCue + 1]?.w === ':');
  const from = skipFiller(words, skipWord ? afterCue + 1 : afterCue);
  const user = phraseAt(words, from, ABOUT_THE_PERSON) >= 0 && words[from]?.w !== "i'd";
  return { kind: 'remember', from: startOf(read, from), to: trimTrailing(read, words.length), sentence, user };
}

function readAlwaysNever(read: Read, i: number, ctx: Context, conditioned: boolean): Omit<Found, 'condition'> | undefined {
  const { sentence, words } = read;
  const subjectWord = words[i]?.w ?? '';
  const subject = SUBJECTS.get(subjectWord);
  let k = subject ? i + 1 : i;
  const afterModal = phraseAt(words, k, MODAL);
  const modal = afterModal >= 0 || subjectWord.includes("'");
  if (afterModal >= 0) k = afterModal;
  const adverb = k;
  const afterAdverb = phraseAt(words, k, ALWAYS_NEVER);
  if (afterAdverb < 0) return undefined;
  // Only "always," or "always " may follow, as the lookahead of a cue.
  const verbAt = skipFiller(words, afterAdverb);
  const verb = words[verbAt];
  // "squash-merge" is "squash" as far as verbs go.
  const base = verb && !verb.punct ? leadingLetters(verb.w) : '';
  if (!isBaseVerb(base)) return undefined;
  if (subject === 'i' || subject === 'we') {
    if (NOT_PREFERENCES.has(base)) return undefined;
    return { kind: 'always-never', from: startOf(read, i), to: trimTrailing(read, words.length), sentence, user: subject === 'i' };
  }
  // "You always break the build" is a complaint; "you should always …", "you'll never …" are rules.
  if ((subject === 'you' || subject === 'claude') && !modal) return undefined;
  // A bare "Always return UTC" deep in a task is the task's spec; a subject or condition makes it a rule.
  if (!subject && !conditioned && !ctx.bareAllowed) return undefined;
  return { kind: 'always-never', from: startOf(read, subject ? adverb : i), to: trimTrailing(read, words.length), sentence };
}

/**
 * A statement of how this project does things: "this repo uses pnpm, not npm", "in this codebase
 * we use ky", "we don't do default exports", "this repo is pnpm-only, don't run npm". A bare "this
 * repo uses pnpm" counts only when it is the whole prompt or follows "no," (otherwise it is
 * context for what comes next); a "but", "which" or "so" after it makes it a report.
 */
function readHouseRule(read: Read, i: number, ctx: Context, opened: boolean): Omit<Found, 'condition'> | undefined {
  const { sentence, words } = read;
  const subject = phraseAt(words, i, HOUSE_SUBJECT);
  if (subject < 0) return undefined;
  for (let k = subject; k < words.length; k++) {
    // "…, so we should not use npm" is the rule's consequence; "…, so the build fails" a report.
    if (words[k]!.w === 'so' && (phraseAt(words, k + 1, PROHIBITION) >= 0 || phraseAt(words, k + 1, YOU_MODAL) >= 0 || phraseAt(words, k + 1, WE_SHOULD_NOT) >= 0)) break;
    if (HOUSE_NOT.has(words[k]!.w)) return undefined;
  }
  const to = trimTrailing(read, words.length);
  const we = words[subject - 1]?.w === 'we';
  const weAre = words[subject - 1]?.w === "we're" || words[subject - 1]?.w === 'are';
  const dont = we ? phraseAt(words, subject, WE_DONT) : -1;
  if (dont >= 0) {
    const verb = words[dont];
    const base = verb && !verb.punct ? leadingLetters(verb.w) : '';
    if (!isBaseVerb(base) || NOT_PREFERENCES.has(base)) return undefined;
    return { kind: 'house-rule', from: startOf(read, i), to, sentence };
  }
  const verb = weAre ? (words[subject]?.w === 'using' ? subject + 1 : -1) : phraseAt(words, subject, HOUSE_VERB);
  if (verb < 0 || verb >= words.length) return undefined;
  const only = words.slice(verb).some((w) => !w.punct && w.w.endsWith('-only'));
  const prohibits = words.some((w, k) => k > verb && (w.w === ',' || w.w === ';' || w.w === 'so') && (phraseAt(words, k + 1, PROHIBITION) >= 0 || phraseAt(words, k + 1, WE_SHOULD_NOT) >= 0));
  const scoped = words[i]?.w !== 'we' || hasPhrase(words, THIS_PROJECT, verb);
  const bare = scoped && (opened || ctx.alone);
  if (!hasContrast(words, verb) && !only && !prohibits && !bare) return undefined;
  return { kind: 'house-rule', from: startOf(read, i), to, sentence };
}

function toldYouAt(words: readonly Word[], i: number): number {
  let end = phraseAt(words, i, TOLD_YOU);
  if (end < 0) {
    const asked = phraseAt(words, i, ASKED_YOU);
    if (asked < 0 || phraseAt(words, asked, ASKED_NEXT) < 0) return -1;
    return asked;
  }
  for (;;) {
    const w = words[end]?.w;
    if (w !== undefined && TOLD_AGAIN.has(w)) end++;
    else if (phraseAt(words, end, TOLD_AGAIN_PHRASES) >= 0) end = phraseAt(words, end, TOLD_AGAIN_PHRASES);
    else break;
  }
  // "I told you that." (and nothing after) opens; "I told you that X" says X.
  if (words[end]?.w === 'that' && (end + 1 >= words.length || words[end + 1]!.punct)) end++;
  return end;
}

function noAt(words: readonly Word[], i: number): number {
  let end = phraseAt(words, i, NO);
  if (end < 0) return -1;
  // "no, no, no"
  for (;;) {
    let k = end;
    while (words[k]?.punct && (words[k]!.w === ',' || words[k]!.w === '.' || words[k]!.w === '!')) k++;
    if (words[k]?.w === 'no') end = k + 1;
    else break;
  }
  const next = words[end];
  if (!next || NO_MARKS.has(next.w) || phraseAt(words, end, NO_ADDRESSED) >= 0) return end;
  return -1;
}

/** Whether the clause at word `i` gives an order: "read the tests first", not "we might …". */
function imperativeAt(words: readonly Word[], i: number): boolean {
  if (phraseAt(words, i, RULE_VERB) >= 0 || strongRuleAt(words, i)) return true;
  const word = words[i];
  return word !== undefined && !word.punct && isBaseVerb(word.w) && !NOT_IMPERATIVE.has(word.w);
}

function strongRuleAt(words: readonly Word[], i: number): boolean {
  if (phraseAt(words, i, STRONG_RULE) >= 0) return true;
  const modal = phraseAt(words, i, YOU_MODAL);
  if (modal < 0) return false;
  const next = words[modal];
  if (!next || next.punct || !isLetters(next.w.slice(0, 1))) return false;
  return next.w !== 'have' && !(next.w === 'be' && words[modal + 1]?.w === 'able');
}

function leadingLetters(word: string): string {
  let k = 0;
  while (k < word.length && ((word.charCodeAt(k) >= 97 && word.charCodeAt(k) <= 122) || word[k] === "'")) k++;
  return word.slice(0, k);
}

/** Whether a word has a letter or digit in it (an emoji or a symbol has none). */
function hasLetter(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return true;
    // Latin, Greek, Cyrillic … below the punctuation and symbol blocks; CJK and Hangul above them.
    if ((code >= 0xc0 && code < 0x2000) || (code >= 0x3040 && code < 0xd800)) return true;
  }
  return false;
}

function isDigits(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) < 48 || word.charCodeAt(i) > 57) return false;
  return true;
}

function isBaseVerb(word: string): boolean {
  if (word.length < 2 || !isLetters(word) || PAST_OR_REPORT.has(word)) return false;
  if (word.endsWith('ed') && !BASE_FORMS_IN_ED.has(word)) return false;
  if (word.endsWith('s') && !['ss', 'us', 'is', 'ys'].some((ending) => word.endsWith(ending))) return false;
  return !word.endsWith("'s") && !word.endsWith("n't");
}

/**
 * "X, not Y", "X, never Y", "X instead of Y", "X rather than Y" with words on both sides; "do
 * not", "is not", "not sure" are negations, not contrasts.
 */
function hasContrast(words: readonly Word[], from: number): boolean {
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
function skipFiller(words: readonly Word[], i: number): number {
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
function lastWord(words: readonly Word[]): number {
  let end = words.length;
  while (end > 0 && words[end - 1]!.punct && (words[end - 1]!.w === '.' || words[end - 1]!.w === '!' || words[end - 1]!.w === '?')) end--;
  return end;
}

/** Where in the sentence's text the lesson ends once its trailing "from now on", "again", "please" are off. */
function trimTrailing(read: Read, end: number): number {
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

function startOf(read: Read, i: number): number {
  return i < read.words.length ? read.words[i]!.start : read.sentence.text.length;
}

function toCorrection(found: Found): Correction | null {
  const { sentence } = found;
  let raw = sentence.text.slice(found.from, found.to);
  if (found.negate) raw = `don't ${raw}`;
  if (found.condition) raw = `${found.condition}, ${raw}`;
  const lesson = cleanLesson(raw);
  const words = tokenize(lesson.toLowerCase().replaceAll('\u2019', "'").replaceAll('\u2018', "'"));
  if (contentWords(words) < 2) return null;
  if (hasPhrase(words, DEIXIS) || ['this', 'that'].includes(words[lastWord(words) - 1]?.w ?? '')) return null;
  if (words.some((w, k) => (w.w === 'line' || w.w === 'lines') && isDigits(words[k + 1]?.w ?? ''))) return null;
  if (phraseAt(words, 0, MOMENT) >= 0 || hasPhrase(words, JUST_DONE)) return null;
  // "no, use the one here" points at the screen; "use pnpm here, not npm" and "don't use axios here,
  // use ky" say what this project uses.
  // A tool or convention is named bare ("use pnpm here"); "use a Map here" is about the code at hand.
  if (found.weak && words.some((w) => w.w === 'here') && words[0]?.w !== 'we') {
    const use = words.findIndex((w) => w.w === 'use' || w.w === 'uses');
    const named = use < 0 || !ARTICLES.has(words[use + 1]?.w ?? '');
    if (!named || (found.kind !== 'instead' && !hasContrast(words, 0))) return null;
  }
  if (found.weak && PRONOUNS.has(words[0]?.w ?? '') && words[1] && !words[1].punct && words[1].w !== 'is' && isLetters(words[1].w.slice(0, 1))) return null;
  if (hasPhrase(words, STEERING) || words.some((w) => w.w.startsWith('jailbreak'))) return null;
  const user = found.user ?? phraseAt(words, 0, ABOUT_THE_PERSON) >= 0;
  const everywhere = hasPhrase(tokenize(sentence.cue), GLOBAL);
  const scope = everywhere || (user && !hasPhrase(words, THIS_PROJECT)) ? 'global' : 'project';
  const { description, name } = describeLesson(lesson);
  return { kind: found.kind, type: user ? 'user' : 'feedback', scope, lesson, name, description };
}

/** Words of two letters or more that are not filler: "use pnpm" has two, "do it again" none. */
function contentWords(words: readonly Word[]): number {
  let count = 0;
  for (const word of words) {
    if (word.punct) continue;
    // "src/utils/logger.ts" counts as its parts, as a person reads it.
    for (const part of word.w.split(/[./:@]/)) if (part.length >= 2 && hasLetter(part) && !STOPWORDS.has(part)) count++;
  }
  return count;
}
