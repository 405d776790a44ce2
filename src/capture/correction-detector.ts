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
 *
 * This file walks the sentences and turns what was found into a lesson; the cue readers are in
 * ./cue-readers.ts, what they read off a sentence's words in ./clause-words.ts.
 */
import type { MemoryType } from '../events/memory-kinds.js';
import {
  ABOUT_THE_PERSON, ALWAYS_NEVER, ARTICLES, CONDITION, DEIXIS, GLOBAL, HABIT, HYPOTHETICAL, INTRO_ALWAYS,
  INTRO_FROM_NOW_ON, INTRO_REMEMBER, INTRO_TOLD_YOU, JUST_DONE, MACHINE_TEXT, MOMENT, POLITE, PRONOUNS,
  REPORTED, RETRY, STEERING, STOPWORDS, TASK_START, THIS_PROJECT, WHEN_I_SAY, WHY_AGAIN, WRONG,
} from './correction-cues.js';
import { cleanLesson, describeLesson } from './lesson-text.js';
import { INPUT_CAP, mightBeCorrection } from './might-be-correction.js';
import { proseSentences } from './prose-sentences.js';
import { hasPhrase, isLetters, phraseAt, tokenize, type Word } from './words.js';
import type { CorrectionKind } from './correction-kind.js';
import { imperativeAt, isBaseVerb, strongRuleAt, hasLetter, isDigits, hasContrast, skipFiller, lastWord, trimTrailing, startOf, type Read } from './clause-words.js';
import { factAt, readDurable, toldYouAt, noAt, type Found, type Context } from './cue-readers.js';

export type { CorrectionKind } from './correction-kind.js';

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
      // "I said no semicolons": the ban is the lesson.
      if (next === 'no' && words[i + 1] !== undefined && !words[i + 1]!.punct) {
        explicit = true;
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
  if (opener === 'wrong' && factAt(words, i)) return { found: { kind: 'wrong', from: startOf(read, i), to: sentence.text.length, sentence, weak: true } };
  const ruled = strongRuleAt(words, i) || hasContrast(words, i);
  if (opener) return ruled ? { found: { kind: opener, from: startOf(read, i), to: sentence.text.length, sentence, weak: true } } : {};
  if (ctx.pending && ruled) return { found: { kind: ctx.pending, from: startOf(read, i), to: sentence.text.length, sentence, weak: true } };
  return {};
}

function toCorrection(found: Found): Correction | null {
  const { sentence } = found;
  let raw = sentence.text.slice(found.from, found.to);
  if (found.negate) raw = `don't ${raw}`;
  if (found.condition) raw = `${found.condition}, ${raw}`;
  const lesson = cleanLesson(raw);
  const words = tokenize(lesson.toLowerCase().replaceAll('\u2019', "'").replaceAll('\u2018', "'"));
  if (contentWords(words) < (terse(found.kind, words) ? 1 : 2)) return null;
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
  if (found.weak && pointsAtTheMoment(words)) return null;
  if (found.weak && PRONOUNS.has(words[0]?.w ?? '') && words[1] && !words[1].punct && words[1].w !== 'is' && isLetters(words[1].w.slice(0, 1))) return null;
  if (hasPhrase(words, STEERING) || words.some((w) => w.w.startsWith('jailbreak'))) return null;
  const user = found.user ?? phraseAt(words, 0, ABOUT_THE_PERSON) >= 0;
  const everywhere = hasPhrase(tokenize(sentence.cue), GLOBAL);
  const scope = everywhere || (user && !hasPhrase(words, THIS_PROJECT)) ? 'global' : 'project';
  const { description, name } = describeLesson(lesson);
  return { kind: found.kind, type: user ? 'user' : 'feedback', scope, lesson, name, description };
}

/**
 * After "no," or "that's wrong": "use the session repo", "use @foo.mdc", "do not clean it up",
 * "do this from the session workspace" steer the step at hand; "use pnpm" and "just use the
 * minsky command for task management operations" name what to use beyond it.
 */
function pointsAtTheMoment(words: readonly Word[]): boolean {
  const use = words[0]?.w === 'just' ? 1 : 0;
  if (words[use]?.w === 'use' && !hasContrast(words, 0)) {
    const next = words[use + 1]?.w ?? '';
    if (next.startsWith('@') || (ARTICLES.has(next) && contentWords(words) <= 3)) return true;
  }
  if (words.some((w, k) => w.w === 'do' && ['this', 'that', 'it'].includes(words[k + 1]?.w ?? ''))) return true;
  return contentWords(words) < 3 && words.some((w) => w.w === 'it' || w.w === 'them');
}

/**
 * A one-word rule is enough after a cue that says it is one: "remember: always test", "I said no
 * semicolons". After "no," or "that's wrong" it is not ("no, always" says nothing).
 */
function terse(kind: CorrectionKind, words: readonly Word[]): boolean {
  if (kind === 'told-you') return words[0]?.w === 'no';
  if (kind !== 'remember' && kind !== 'from-now-on') return false;
  const verb = words[phraseAt(words, 0, ALWAYS_NEVER)];
  return verb !== undefined && !verb.punct && isBaseVerb(verb.w);
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
