import { ALWAYS_NEVER, MODAL_NOT, PROHIBITION, RULE_REQUEST, RULE_SAYS, STANDING_CONDITION } from './correction-cues.js';
import { NOT_IMPERATIVE } from './correction-cues.js';
import { phraseAt } from './words.js';
import { hasContrast, isBaseVerb, leadingLetters, skipFiller, startOf, trimTrailing, type Read } from './clause-words.js';

/*
 * Rules people state without the cue words the other readers look for: asking for a rule to be
 * written down ("create a rule that specifies that …"), a standing condition on a prohibition
 * ("don't interpret numbers unless I ask for it"), "you should not be …", and a rule about a
 * named thing ("the task status must be updated using minsky, not the session version").
 */

const PLACES = new Set(['file', 'folder', 'dir', 'directory', 'mdc', 'doc', 'document']);

/** Where the lesson starts and ends in the sentence's text. */
export interface Span {
  from: number;
  to: number;
}

/**
 * "create a rule that specifies that when fixing a bug, always …", "add a rule to include X at
 * the end of each response", "update that rule to specify to always …", "make sure the rule
 * mentions that …": the rule asked for is the lesson. What the request points at ("recording
 * this preference") is left to the words around it, and a request without a rule's content says
 * nothing.
 */
export function readRuleRequest(read: Read, i: number): Span | undefined {
  const { sentence, words } = read;
  const asked = phraseAt(words, i, RULE_REQUEST);
  if (asked < 0 || sentence.question) return undefined;
  let from = skipFiller(words, asked);
  // "add a rule to that same mdc file to include …": past where the rule goes.
  if (words[from]?.w === 'to' || words[from]?.w === 'in') {
    for (let k = from + 1; k < Math.min(words.length, from + 7); k++) {
      if (PLACES.has(words[k]!.w)) {
        from = k + 1;
        while (PLACES.has(words[from]?.w ?? '')) from++;
        break;
      }
    }
  }
  const says = phraseAt(words, from, RULE_SAYS);
  if (says >= 0) from = says;
  if (words[from]?.w === 'that' || words[from]?.w === 'to') from++;
  from = skipFiller(words, from);
  if (from >= words.length - 1) return undefined;
    // The rule itself must say something: "always …", "must …", or an order ("include X at the end").
  const ruled = words.slice(from).some((w) => w.w === 'must' || w.w === 'should' || w.w === 'only' || phraseAt(words, words.indexOf(w), ALWAYS_NEVER) >= 0);
  const order = !NOT_IMPERATIVE.has(words[from]!.w) && !words[from]!.w.includes('.') && isBaseVerb(leadingLetters(words[from]!.w));
  if (!ruled && !order) return undefined;
  return { from: startOf(read, from), to: trimTrailing(read, words.length) };
}

/**
 * "don't interpret numbers unless I ask for it", "you are NOT to commit any code without showing
 * me": a prohibition with a standing condition holds beyond the step.
 */
export function readStandingProhibition(read: Read, i: number): Span | undefined {
  const { words } = read;
  const banned = phraseAt(words, i, PROHIBITION);
  if (banned < 0 || banned >= words.length || words[banned]!.punct) return undefined;
  for (let k = banned + 1; k < words.length - 1; k++) {
    if (phraseAt(words, k, STANDING_CONDITION) >= 0) {
      return { from: startOf(read, i), to: trimTrailing(read, words.length) };
    }
  }
  return undefined;
}

/** "you should not be editing files in the main workspace": a standing prohibition. */
export function readYouShouldNot(read: Read, i: number): Span | undefined {
  const { words } = read;
  if (words[i]?.w !== 'you') return undefined;
  const after = phraseAt(words, i + 1, MODAL_NOT);
  if (after < 0) return undefined;
  const verbAt = words[after]?.w === 'be' ? after + 1 : after;
  const verb = words[verbAt];
  if (!verb || verb.punct) return undefined;
  const base = leadingLetters(verb.w);
  const ok = verbAt > after ? base.endsWith('ing') && base.length > 4 : isBaseVerb(base) && !['have', 'need', 'worry', 'be'].includes(base);
  if (!ok || verbAt + 1 >= words.length) return undefined;
  return { from: startOf(read, i), to: trimTrailing(read, words.length) };
}

/**
 * "the task status must be updated using minsky, not the session version", "tasks.md should
 * always use the normal format": a named thing (not a pronoun) with a modal, and "always"/"never"
 * or a contrast to say it is a rule rather than an expectation ("the test should pass now").
 */
export function readNamedRule(read: Read, i: number): Span | undefined {
  const { words } = read;
  const first = words[i];
  if (!first || first.punct || !['the', 'our', 'all', 'every', 'each'].includes(first.w) && !first.w.includes('.')) return undefined;
  for (let k = i + 1; k < Math.min(words.length - 2, i + 5); k++) {
    const w = words[k]!;
    if (w.punct) return undefined;
    if (w.w !== 'must' && w.w !== 'should') continue;
    let v = k + 1;
    const adverb = phraseAt(words, v, ALWAYS_NEVER);
    if (adverb >= 0) v = adverb;
    else if (words[v]?.w === 'not') v++;
    if (words[v]?.w === 'be') v++;
    const verb = words[v];
    if (!verb || verb.punct) return undefined;
    if (adverb < 0 && !hasContrast(words, v)) return undefined;
    return { from: startOf(read, i), to: trimTrailing(read, words.length) };
  }
  return undefined;
}
