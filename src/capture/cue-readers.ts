import {
  ABOUT_THE_PERSON, ALWAYS_NEVER, ASKED_NEXT, ASKED_YOU, BETTER_TO, CONTRAST_OPENER, FACT_VERB, FROM_NOW_ON, HOUSE_NOT,
  HOUSE_SUBJECT, HOUSE_VERB, INSTEAD_OPENER, INSTEAD_USE, IN_FUTURE, KEEP_IN_MIND, MODAL, NO,
  NOT_PREFERENCES, NO_ADDRESSED, NO_MARKS, PREFERENCE, PREFER_AFTER, PROHIBITION, REMEMBER, REMEMBER_CUT_MARKS,
  REMEMBER_NEXT, RULE_VERB, SUBJECTS, THIS_PROJECT, TOLD_AGAIN, TOLD_AGAIN_PHRASES, TOLD_YOU, TRAILING_AGAIN,
  TASK_START, TRAILING_DURABLE, TRAILING_REMEMBER, WANTS_YOU, WE_DONT, WE_SHOULD_NOT, YOU_MODAL,
} from './correction-cues.js';
import type { Sentence } from './prose-sentences.js';
import { hasPhrase, isLetters, phraseAt, phraseEndingAt, type Word } from './words.js';
import type { CorrectionKind } from './correction-kind.js';
import { readNamedRule, readRuleRequest, readStandingProhibition, readYouShouldNot } from './rule-readers.js';
import { imperativeAt, leadingLetters, isBaseVerb, hasContrast, skipFiller, lastWord, trimTrailing, startOf, type Read } from './clause-words.js';

/*
 * The correction detector's cue readers: given a sentence and where its cue starts, each says
 * whether it reads as a rule to keep and where the lesson is ("always…", "remember that…", "we
 * don't…", "I told you…", "no, …").
 */

export interface Found {
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

export interface Context {
  pending: CorrectionKind | undefined;
  /** The prompt is this one sentence. */
  alone: boolean;
  /** The prompt asks to try again: its reminders are for the retry. */
  retry: boolean;
  bareAllowed: boolean;
  previous: Read | undefined;
  single: boolean;
}

/** A cue that by itself says the rule is to be kept, at word `i` or at the sentence's end. */
export function readDurable(read: Read, i: number, ctx: Context, conditioned: boolean, opened = false): Omit<Found, 'condition'> | undefined {
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
  const better = phraseAt(words, i, BETTER_TO);
  if (better >= 0 && ctx.bareAllowed && phraseAt(words, better, RULE_VERB) >= 0) return { kind: 'preference', from: startOf(read, i), to: trimTrailing(read, words.length), sentence, user: false, weak: true };
  const alwaysNever = readAlwaysNever(read, i, ctx, conditioned);
  if (alwaysNever) return alwaysNever;
  const house = readHouseRule(read, i, ctx, opened);
  if (house) return house;
  const stated = readRuleRequest(read, i) ?? readStandingProhibition(read, i) ?? (ctx.bareAllowed ? readYouShouldNot(read, i) ?? readNamedRule(read, i) : undefined);
  if (stated) return { kind: 'always-never', ...stated, sentence };
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
  // "Don't add comments, I prefer clean code": the reason given is a preference, so the prohibition stands.
  const banned = phraseAt(words, i, PROHIBITION);
  if (banned >= 0 && !['worry', 'bother', 'mind', 'panic', 'apologize', 'apologise'].includes(words[banned]?.w ?? '')) {
    for (let k = i + 2; k < words.length - 2; k++) {
      // "don't do it, I prefer to …" bans something only the conversation knows.
      if (['it', 'this', 'that', 'them', 'me'].includes(words[k]!.w)) break;
      if ((words[k]!.w === ',' || words[k]!.w === ';') && phraseAt(words, k + 1, PREFER_AFTER) >= 0) {
        return { kind: 'always-never', from: startOf(read, i), to: trimTrailing(read, words.length), sentence };
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
  return alwaysClause(read, i, ctx);
}

/**
 * "complete the commit, always verify and run hooks": a rule in a clause of its own after a
 * request, when the sentence does not set a task (whose clauses are its spec) and "always" is
 * followed by an order ("…, always returning UTC" describes the function asked for).
 */
function alwaysClause(read: Read, i: number, ctx: Context): Omit<Found, 'condition'> | undefined {
  const { sentence, words } = read;
  if (!ctx.bareAllowed || sentence.question || phraseAt(words, i, TASK_START) >= 0) return undefined;
  for (let k = i + 2; k < words.length - 2; k++) {
    if (words[k]!.w !== ',' && words[k]!.w !== ';') continue;
    const after = phraseAt(words, k + 1, ALWAYS_NEVER);
    if (after < 0) continue;
    const verb = words[after];
    const base = verb && !verb.punct ? leadingLetters(verb.w) : '';
    if (isBaseVerb(base) && !base.endsWith('ing') && !NOT_PREFERENCES.has(base)) {
      return { kind: 'always-never', from: startOf(read, k + 1), to: trimTrailing(read, words.length), sentence };
    }
  }
  return undefined;
}

/** "the API returns JSON", "our backend expects ISO dates": what a named thing does, after "that's wrong". */
export function factAt(words: readonly Word[], i: number): boolean {
  if (words[i]?.w !== 'the' && words[i]?.w !== 'our') return false;
  for (let k = i + 2; k < Math.min(words.length - 1, i + 5); k++) {
    if (words[k]!.punct) return false;
    if (FACT_VERB.has(words[k]!.w)) return !words[k + 1]!.punct;
  }
  return false;
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

export function toldYouAt(words: readonly Word[], i: number): number {
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

export function noAt(words: readonly Word[], i: number): number {
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
