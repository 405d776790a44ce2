/**
 * The correction detector (DESIGN.md "Capture → Correction detector"): finds, without an LLM, a
 * prompt in which the person corrects the agent or states a rule to keep ("no, I told you…",
 * "that's wrong…", "remember that…", "from now on…", "always/never…"), and cuts the lesson out of
 * it.
 *
 * It runs twice on the same text: in the UserPromptSubmit hook (to say in one line that a lesson
 * was noted) and in the memories projector, on the prompt as the log stores it (redacted, capped),
 * to make or reinforce the memory. So it is a pure, deterministic function of that text, linear in
 * its length, and imports nothing that costs the hook a module load.
 *
 * Precision first: a cue counts only at the start of a sentence the person typed (never inside
 * code, quotes, pasted logs or wrapper elements), never in a question or a hypothetical, and only
 * when what follows reads as a rule with some content. A correction that says nothing durable
 * ("no, wrong, try again") is not a lesson.
 */
import type { MemoryType } from '../memories/memory-kinds.js';
import { cleanLesson, describeLesson } from './lesson-text.js';
import { proseSentences, type Sentence } from './prose-sentences.js';

/** Which cue fired. */
export type CorrectionKind =
  | 'told-you' // "I told you to…", "like I said, …", "how many times…? …"
  | 'wrong' // "that's wrong, …", "why do you keep…? …"
  | 'no' // "no, use …", "nope. …", "actually, we …"
  | 'remember' // "remember that…", "don't forget to…", "…, remember that"
  | 'from-now-on' // "from now on…", "going forward…", "…in the future", "rule: …"
  | 'always-never' // "always…", "never…", "don't … again", "we never…"
  | 'stop' // "stop adding…"
  | 'preference' // "I prefer…", "I'd rather…", "I want you to always…"
  | 'instead'; // "use X, not Y" as the whole prompt

export interface Correction {
  kind: CorrectionKind;
  /** feedback: how to work; user: about the person (role, preferences, knowledge). */
  type: Extract<MemoryType, 'feedback' | 'user'>;
  /** global only when the prompt says the rule holds everywhere, or it is about the person. */
  scope: 'project' | 'global';
  /** The rule in the person's words, cleaned: one line, no markup, at most LESSON_CAP chars. */
  lesson: string;
  /** A short title, at most NAME_CAP chars. */
  name: string;
  /** The canonical one-line form MEMORY.md lists, at most DESCRIPTION_CAP chars. */
  description: string;
}

/** Nothing past the stored prompt's cap is ever looked at (PROMPT_CAP in events/hook-events.ts). */
const INPUT_CAP = 20_000;

/** Text that Claude Code or a tool produced rather than the person: never a correction. */
const MACHINE_TEXT =
  /^\s*(?:This session is being continued from a previous conversation|Caveat: The messages below|\[Request interrupted|<task-notification>|<command-(?:name|message)>|<local-command-|\/[a-z][\w:.-]*(?:\s|$)|![a-z])/i;

// Cues are matched on Sentence.cue (lowercased, straight apostrophes), each anchored where the
// previous one stopped (see `at`): a test never scans the sentence for a place to start.

/** Words that open a sentence without changing what it says. */
const FILLER =
  /^(?:(?:(?:ok(?:ay)?|also|and|but|oh|btw|hey|so|well|ps|p\.s\.|claude|please|pls|plz|seriously|ugh+|hmm+|look|listen|wait|again|guys|sorry|one more thing|for the record|fyi)\b|[\s,:;!?.\u2014\u2013-])+)/;

const POLITE = /^(?:(?:can|could|would|will) you (?:please |kindly )?)/;

/** Sentences that only wonder: what follows is not a rule. */
const HYPOTHETICAL =
  /^(?:(?:what if|suppose|supposing|imagine|assuming|maybe|perhaps|i wonder|i think|i guess|i'm not sure|not sure|do you think|would it|should we|should i|is it|are we|can we|could we|if|whether|unless|in case)\b)/;

/** A condition before the rule: "when you write tests, always …". */
const CONDITION = /^(?:(?:if|when|whenever|every time|each time|once|before|after|while|unless)\b)/;

/** Conditions that already say "always": "whenever you add an env var, document it". */
const HABIT = /^(?:whenever|every time|each time|any time)\b/;

const TOLD_YOU =
  /^(?:(?:i(?:'ve| have)? (?:already |just |literally )?told you|i (?:already |specifically |explicitly )?asked you(?= not to | to (?:always|never) )|i (?:already |just )?said|like i (?:already )?said|as i (?:already )?said|i(?:'ve| have) (?:already )?said(?: it| this)?|how many times do i (?:have|need) to (?:tell|ask|say)(?: you)?(?: this)?|what did i (?:just )?(?:tell|ask) you|you (?:keep|always) forget(?:ting)?|you forgot again)(?: (?:this|so|already|before|twice|earlier|yesterday|many times|multiple times|a (?:dozen|hundred|thousand|million) times))*(?: that(?=\s*(?:[,.!?:;\u2014\u2013-]|$)))?(?=[\s,.!?:;\u2014\u2013-]|$))/;

const WRONG =
  /^(?:(?:(?:that(?:'s| is| was)|this(?:'s| is)|it(?:'s| is)|you(?:'re| are)) (?:(?:still|just|completely|totally|all|so|plain|dead) )?(?:wrong|incorrect|not (?:right|correct|what i (?:asked|said|wanted|meant))|not how (?:we|i) do (?:it|this|things)(?: here)?)|wrong)(?=[\s,.!?:;\u2014\u2013-]|$))/;

/** A complaint that the agent keeps doing something: the next sentence may say what to do instead. */
const WHY_AGAIN = /^(?:why (?:do|did|are|would|the hell do|on earth do) you (?:keep(?: on)?|always|still|again)\b)/;

/** "no" opens a correction only when punctuated or addressed: "no idea" and "no dialog" do not. */
const NO =
  /^(?:(?:no+|nope|nah|not quite|not like that|actually)(?:[\s,.!]+no+)*(?=[,.!:;\u2014\u2013-]|\s+(?:i|we|you|use|don't|do not|never|always|it's|its|that's|please|just|stop|remember|not|it should)\b|$))/;

/** Strong: the words themselves say the rule is to be kept. */
const FROM_NOW_ON =
  /^(?:(?:from now on|from here on(?: out)?|going forward(?! with)|moving forward(?! with)|henceforth|hereafter|for future reference|for future sessions|in future sessions|for all future|(?:(?:new|house|team|general|project) )?(?:rule|convention)\s*:|à partir de maintenant|dorénavant|désormais|de ahora en adelante|a partir de ahora|desde ahora|ab jetzt|von nun an|ab sofort|d'ora in poi|a partir de agora|daqui para frente)(?=[\s,.!:;\u2014\u2013-]|$))/;

/** Weak: "in the future, …" is a rule only when an imperative follows. */
const IN_FUTURE = /^(?:(?:in (?:the )?future|next time|the next time)(?=[\s,.!:;\u2014\u2013-]|$))/;

const REMEMBER =
  /^(?:(?:remember|don't forget|do not forget|never forget|keep in mind|bear in mind|note for (?:the )?future|memorize|(?:add|save|put|store|write) (?:this |that |it )?(?:to|in|into) (?:your |the )?memory|souviens-toi|rappelle-toi|recuerda|denk daran|merk dir|ricorda|lembre-se)(?=[\s,.!:;\u2014\u2013-]|$))/;

/** What may follow "remember" in a rule ("remember when…" and "remember me" are not). */
const REMEMBER_NEXT =
  /^(?:[\s,]*(?::|,|\u2014|-|\s(?:that|to|this:|we|i|i'm|the|our|my|you|it's|never|always|not to|que|dass|de que|di|che))(?=[\s:,]|$))/;

const PREFERENCE =
  /^(?:(?:i(?:'d| would) (?:much )?(?:prefer|rather)|i (?:much |really |strongly )?prefer|i like it (?:when|if|better when)|i (?:really )?(?:hate|dislike|don't like|do not like) (?:it )?(?:when|if)|i (?:want|need|'d like|would like) you to (?:always|never|stop))(?=[\s,.!:;\u2014\u2013-]|$))/;

const ALWAYS_NEVER =
  /^(?:(?:(you|we|i|claude)(?:'ll|'d)? )?((?:should|must|will|need to|have to|ought to) )?(always|never(?: ever)?|don't (?:you )?ever|do not ever|under no circumstances(?: should you)?)(?=[\s,]|$))/;

const STOP = /^(?:(?:stop|quit)\s+(?=[a-z]+ing\b))/;

/** Verbs a durable rule starts with (broad); transient ones like fix, add or check are left out. */
const RULE_VERB =
  /^(?:(?:please\s+)?(?:use|don't|dont|do not|never|always|avoid|prefer|stop|keep|put|run|call|name|write|import|leave|only|make sure|ask|follow|stick (?:to|with)|switch to|pin|format|indent|prefix|place|store|wrap|default to|target|be)\b)/;

/** The narrower set a weak cue ("no,", "that's wrong") needs after it. */
const STRONG_RULE =
  /^(?:(?:please\s+)?(?:use|don't|dont|do not|never|always|avoid|prefer|stop|only use|stick (?:to|with)|switch to|default to)\b|we (?:use|don't|do not|never|always|prefer|only|run|deploy|keep|put|name|write|stick|follow|avoid|ship)\b|you (?:should|must|need to|have to|'ve got to|ought to)(?: always| never)? (?!have\b|be able\b)[a-z])/;

const PROHIBITION = /^(?:(?:please\s+)?(?:don't|dont|do not|never|stop|quit|avoid)\b)/;

/** Durable words at the end of a sentence: "use pnpm from now on", "don't add emojis again". */
const TRAILING_DURABLE = /\s(?:from now on|going forward|moving forward|from here on(?: out)?|in (?:the )?future|henceforth)\s*[.!?]*\s*$/;
const TRAILING_AGAIN = /\s(?:(?:ever )?again|anymore|any more|ever)\s*[.!?]*\s*$/;
const TRAILING_REMEMBER =
  /[,;:\u2014\u2013(-]\s*(?:please\s+)?(?:remember (?:that|this|it)|don't forget (?:that|this|it)|keep (?:that|this) in mind|(?:save|add|put) (?:that|this|it) (?:to|in) (?:your )?memory)\s*[.!)]*\s*$/;

const INTRO =
  /\b(?:(from now on|going forward|moving forward|for future reference|henceforth|new rules?|house rules?)|(remember|keep in mind|don't forget)|(i told you|i said|like i said|as i said)|(always|never))\b/;

/** A sentence that starts a task: rules stated after it are the task's spec, not lessons. */
const TASK_START =
  /^(?:(?:please |can you |could you )?(?:write|implement|create|add|build|make|fix|refactor|generate|update|change|rewrite|port|convert|design|scaffold|set up|setup|migrate|draft|review|summarize|explain|debug|investigate)\b)/;

/** First words that make a clause a statement, not an order. */
const NOT_IMPERATIVE = new Set([
  'i', 'we', 'you', 'it', 'they', 'he', 'she', 'there', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'their',
  'maybe', 'perhaps', 'might', 'may', 'could', 'would', 'will', 'we\'ll', 'i\'ll', 'we\'d', 'i\'d', 'let\'s',
  'if', 'when', 'once', 'all', 'some', 'any', 'every', 'each', 'no', 'one', 'two', 'after', 'before',
]);

/** Past and third-person forms: "never worked", "always fails" report, they do not rule. */
const PAST_OR_REPORT = new Set([
  'was', 'were', 'is', 'are', 'been', 'being', 'had', 'has', 'did', 'does', 'got', 'gotten', 'saw', 'seen', 'went',
  'came', 'made', 'ran', 'took', 'gave', 'found', 'thought', 'knew', 'heard', 'said', 'told', 'wrote', 'left', 'felt',
  'kept', 'held', 'brought', 'bought', 'built', 'sent', 'spent', 'lost', 'meant', 'understood', 'broke', 'broken',
  'done', 'gone', 'mind', 'gonna', 'happens', 'happened', 'seems', 'works', 'worked', 'fails', 'failed', 'the', 'a',
  'an', 'that', 'this', 'it', 'in', 'on', 'at', 'when', 'because', 'seem', 'get', 'gets', 'something', 'nothing',
  'everything', 'anything', 'someone', 'everyone', 'anyone', 'somewhere', 'there', 'so', 'too', 'like', 'same',
]);
const BASE_FORMS_IN_S = /(?:ss|us|is|ys)$/;
const BASE_FORMS_IN_ED = new Set(['embed', 'feed', 'need', 'seed', 'speed', 'proceed', 'exceed', 'succeed', 'heed', 'shed', 'shred', 'bleed', 'breed']);
/** After "I always / I never": habits that say nothing about how to work with the person. */
const NOT_PREFERENCES = new Set([
  'forget', 'remember', 'know', 'get', 'understand', 'see', 'hear', 'think', 'wonder', 'seem', 'feel', 'mix', 'confuse',
  'struggle', 'end', 'manage', 'find', 'have', 'need', 'wanted', 'run', 'lose', 'miss', 'hit', 'break',
]);

/** Words that make a lesson meaningless out of the moment it was said in. */
const DEIXIS =
  /\b(?:this (?:file|line|function|method|class|one|time|case|test|component|pr|branch|commit|bug|error|page|step|part|bit)|that (?:one|line|file|function|bug|error|part|bit)|these (?:lines|files|ones|changes)|those (?:lines|files|ones|changes)|above|below|lines? \d+|the (?:first|second|third|last|other|previous|next) (?:one|option|approach|version|way|file|line|endpoint)|right now|for now|yet|today|tonight|tomorrow|this week|this time|when you(?:'re| are) (?:done|finished)|once you(?:'re| are) done|when you finish|before you finish|at the end|afterwards|after that|after this|later)\b/;

/** Lessons about the moment: what the person meant or wanted just now, the bug at hand. */
const MOMENT = /^(?:i (?:wanted|meant|asked|said|was asking|was talking)|i'm (?:asking|talking)|the (?:bug|error|issue|problem|crash|failure|regression|fix)\b)/;

/** "it reports to you, not me": a bare pronoun's referent is lost outside the conversation. */
const PRONOUN_SUBJECT = /^(?:it|they|he|she|this|that) (?!is\b|'s\b)[a-z]/;
const HERE = /\bhere\b/;

/** A "lesson" that tries to steer the agent rather than teach it is not kept. */
const STEERING =
  /\b(?:ignore|disregard|forget|override) (?:all |any |the |your )?(?:previous|prior|above|earlier|other|system)? ?(?:instructions|prompts?|rules|guidelines)\b|\bsystem prompt\b|\byou are (?:now|dan|an? unrestricted)\b|\bjailbreak|\bdeveloper mode\b|\bno (?:restrictions|limits|filters)\b/;

const STOPWORDS = new Set([
  'the', 'a', 'an', 'it', 'its', "it's", 'this', 'that', 'these', 'those', 'to', 'of', 'in', 'on', 'for', 'and', 'or',
  'but', 'do', 'does', 'did', "don't", 'dont', 'not', 'no', 'never', 'always', 'again', 'ever', 'anymore', 'me', 'my',
  'you', 'your', 'we', 'our', 'us', 'i', 'is', 'are', 'be', 'was', 'were', 'so', 'just', 'like', 'thing', 'things',
  'stuff', 'way', 'one', 'here', 'there', 'please', 'with', 'at', 'by', 'as', 'if', 'then', 'them', 'they', 'he',
  'she', 'him', 'her', 'what', 'which', 'who', 'how', 'when', 'why', 'all', 'any', 'some', 'more', 'less', 'too',
  'very', 'really', 'okay', 'ok', 'yes', 'yeah', 'same', 'say', 'said', 'tell', 'told',
  // The cue's own words: "I'd rather not" says nothing.
  "i'd", "i'm", "i've", 'rather', 'prefer', 'would', 'want', 'should', 'must', 'remember', 'stop', 'make', 'sure',
]);

const GLOBAL =
  /\b(?:(?:in|for|across|on) (?:all|every|each|any) (?:of )?(?:my |our |the |your )?(?:projects?|repos?|repositories|codebases?|sessions?|work)|globally|no matter (?:the|which|what) (?:project|repo))\b/;
const THIS_PROJECT = /\b(?:this|the|our) (?:project|repo|repository|codebase|app|service|monorepo)\b|\bhere\b/;

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
  /** The cue asked for the weak deixis filter ("here" makes it meaningless). */
  weak?: boolean;
}

/** The correction `prompt` makes, or null. Pure: the same text always gives the same answer. */
export function detectCorrection(prompt: string): Correction | null {
  if (typeof prompt !== 'string' || prompt.length === 0) return null;
  const text = prompt.length > INPUT_CAP ? prompt.slice(0, INPUT_CAP) : prompt;
  if (MACHINE_TEXT.test(text)) return null;
  const sentences = proseSentences(text);
  if (sentences.length === 0) return null;
  const taskFirst = at(TASK_START, sentences[0]!.cue, skip(FILLER, sentences[0]!.cue, 0)) >= 0;
  let pending: CorrectionKind | undefined;
  for (let k = 0; k < sentences.length; k++) {
    const sentence = sentences[k]!;
    if (sentence.intro >= 0) {
      // A list's items are the person's rules only when its introduction said so ("From now
      // on:"); under "Here's our CONTRIBUTING.md:" they are material to work on.
      const kind = introKind(sentences[sentence.intro]!);
      if (!kind) continue;
      const from = skip(FILLER, sentence.cue, 0);
      const correction = toCorrection({ kind, from, to: trimTrailing(sentence.cue, sentence.cue.length), sentence });
      if (correction) return correction;
      continue;
    }
    // A bare "always…" in the middle of a long prompt, or after a task was set, is the task's spec.
    const edge = sentences.length <= 4 || k < 2 || k >= sentences.length - 2;
    const bareAllowed = edge && (k === 0 || !taskFirst);
    const read = readSentence(sentence, { pending, bareAllowed, previous: sentences[k - 1], single: sentences.length <= 2 && k === 0 });
    if (read.found) {
      const correction = toCorrection(read.found);
      if (correction) return correction;
    }
    pending = read.pending;
  }
  return null;
}

/** What an introduction to a list of rules says about them, if it says they are to be kept. */
function introKind(intro: Sentence): CorrectionKind | undefined {
  if (intro.question) return undefined;
  const m = INTRO.exec(intro.cue);
  if (!m) return undefined;
  if (m[1]) return 'from-now-on';
  if (m[2]) return 'remember';
  if (m[3]) return 'told-you';
  return 'always-never';
}

interface Context {
  pending: CorrectionKind | undefined;
  bareAllowed: boolean;
  previous: Sentence | undefined;
  single: boolean;
}

function readSentence(sentence: Sentence, ctx: Context): { found?: Found; pending?: CorrectionKind } {
  const cue = sentence.cue;
  let pos = skip(FILLER, cue, 0);
  let polite = false;
  const afterPolite = at(POLITE, cue, pos);
  if (afterPolite >= 0) {
    polite = true;
    pos = afterPolite;
  }
  // Openers: "no, I told you, …" may chain.
  let opener: CorrectionKind | undefined;
  let explicit = false;
  let negate = false;
  for (;;) {
    const told = at(TOLD_YOU, cue, pos);
    if (told >= 0) {
      opener = 'told-you';
      pos = told;
      const m = /^\s*(?::|\s(not to|to|that)\s)/.exec(cue.slice(pos));
      if (m) {
        explicit = true;
        negate = m[1] === 'not to';
        pos += m[0].length;
        break;
      }
      pos = skip(FILLER, cue, pos);
      continue;
    }
    const wrong = at(WRONG, cue, pos);
    if (wrong >= 0) {
      if (opener !== 'told-you') opener = 'wrong';
      pos = skip(FILLER, cue, wrong);
      continue;
    }
    if (at(WHY_AGAIN, cue, pos) >= 0) return { pending: 'wrong' };
    const no = at(NO, cue, pos);
    if (no >= 0) {
      opener ??= 'no';
      pos = skip(FILLER, cue, no);
      continue;
    }
    break;
  }
  const rest = pos < cue.length;
  if (opener && !rest) return { pending: opener };
  if (sentence.question && !polite) return {};
  if (!explicit && at(HYPOTHETICAL, cue, pos) >= 0 && at(CONDITION, cue, pos) < 0) return {};

  if (explicit) return { found: { kind: 'told-you', from: pos, to: cue.length, sentence, negate } };

  // "when you write tests, always use vitest": the condition stays with the rule.
  let condition: string | undefined;
  const conditional = at(CONDITION, cue, pos);
  if (conditional >= 0) {
    const comma = cue.indexOf(',', conditional);
    if (comma < 0) return {};
    condition = sentence.text.slice(pos, comma).trim();
    pos = skip(FILLER, cue, comma);
  }

  const durable = readDurable(sentence, pos, ctx, condition !== undefined);
  if (durable) return { found: { ...durable, condition, weak: durable.weak || (opener !== undefined && durable.kind === 'instead') } };
  if (condition !== undefined) {
    if (!HABIT.test(condition.toLowerCase()) || !imperativeAt(cue, pos)) return {};
    return { found: { kind: 'always-never', from: pos, to: trimTrailing(cue, cue.length), sentence, condition } };
  }

  if (opener) {
    if (at(STRONG_RULE, cue, pos) >= 0 || hasContrast(cue, pos)) return { found: { kind: opener, from: pos, to: cue.length, sentence, weak: true } };
    return {};
  }
  if (ctx.pending && (at(STRONG_RULE, cue, pos) >= 0 || hasContrast(cue, pos))) {
    return { found: { kind: ctx.pending, from: pos, to: cue.length, sentence, weak: true } };
  }
  return {};
}

/** A cue that by itself says the rule is to be kept, at `pos` or at the sentence's end. */
function readDurable(sentence: Sentence, pos: number, ctx: Context, conditioned: boolean): Omit<Found, 'condition'> | undefined {
  const cue = sentence.cue;
  const end = cue.length;
  const fromNowOn = at(FROM_NOW_ON, cue, pos);
  if (fromNowOn >= 0) return { kind: 'from-now-on', from: skip(FILLER, cue, fromNowOn), to: end, sentence };
  const inFuture = at(IN_FUTURE, cue, pos);
  if (inFuture >= 0) {
    // "next time, read the tests first" rules; "next time the deploy fails, …" and "in the
    // future we might …" do not.
    const from = skip(FILLER, cue, inFuture);
    return imperativeAt(cue, from) ? { kind: 'from-now-on', from, to: end, sentence } : undefined;
  }
  const remember = at(REMEMBER, cue, pos);
  if (remember >= 0) return readRemember(sentence, remember, ctx);
  const preference = at(PREFERENCE, cue, pos);
  if (preference >= 0) {
    const wantsYou = /^i (?:want|need|'d like|would like) you to/.test(cue.slice(pos, pos + 24));
    return { kind: 'preference', from: pos, to: end, sentence, user: !wantsYou };
  }
  const alwaysNever = readAlwaysNever(sentence, pos, ctx, conditioned);
  if (alwaysNever) return alwaysNever;
  const stop = ctx.bareAllowed ? at(STOP, cue, pos) : -1;
  if (stop >= 0) {
    const word = /^[a-z]+ing/.exec(cue.slice(stop))?.[0];
    // "stop running the tests" halts something now; "stop adding emojis" and "stop wrapping every
    // function" are habits.
    const object = /^[a-z]+ing\s+(?:the|this|that|it|my|your|these|those)\b/.test(cue.slice(stop));
    const habit = /\b(?:every|all|any|always|each|so much|so many)\b/.test(cue.slice(stop, stop + 80));
    if (word && word !== 'working' && word !== 'everything' && word !== 'nothing' && word !== 'something' && (!object || habit)) {
      return { kind: 'stop', from: pos, to: trimTrailing(cue, end), sentence };
    }
  }
  // "use pnpm from now on", "don't add emojis again"
  const tail = cue.slice(Math.max(pos, end - 40));
  if (TRAILING_DURABLE.test(tail) && at(RULE_VERB, cue, pos) >= 0) {
    return { kind: 'from-now-on', from: pos, to: trimTrailing(cue, end), sentence };
  }
  if (TRAILING_AGAIN.test(tail) && at(PROHIBITION, cue, pos) >= 0) {
    return { kind: 'always-never', from: pos, to: trimTrailing(cue, end), sentence };
  }
  if (TRAILING_REMEMBER.test(tail)) {
    const cut = lastCut(cue, Math.max(pos, end - 40));
    if (cut > pos) return { kind: 'remember', from: pos, to: cut, sentence };
  }
  // "don't use moment, use date-fns (instead)": a prohibition with its replacement.
  if (/^(?:please )?(?:don't|do not|never) use [^,;]{1,60}[,;]\s*(?:use|prefer|we use|go with)\s/.test(cue.slice(pos, pos + 120))) {
    return { kind: 'instead', from: pos, to: trimTrailing(cue, end), sentence, weak: true };
  }
  // "use vitest, not jest" said on its own.
  if (ctx.single && /^(?:use|it's|its|it is|we use|prefer)\b/.test(cue.slice(pos, pos + 8)) && hasContrast(cue, pos)) {
    return { kind: 'instead', from: pos, to: end, sentence, weak: true };
  }
  return undefined;
}

function readRemember(sentence: Sentence, afterCue: number, ctx: Context): Omit<Found, 'condition'> | undefined {
  const cue = sentence.cue;
  const next = at(REMEMBER_NEXT, cue, afterCue);
  const restFrom = skip(FILLER, cue, afterCue);
  // "Use pnpm, not npm. Remember that." points back at the sentence before.
  if (/^(?:that|this|it)?\s*(?:please)?\s*[.!]*$/.test(cue.slice(restFrom, restFrom + 16)) && cue.length - restFrom < 16) {
    const previous = ctx.previous;
    if (!previous || previous.question) return undefined;
    return { kind: 'remember', from: skip(FILLER, previous.cue, 0), to: previous.cue.length, sentence: previous };
  }
  if (next < 0) return undefined;
  const m = /^\s*(?:that|to|this:)\s/.exec(cue.slice(afterCue));
  const from = skip(FILLER, cue, m ? afterCue + m[0].length : afterCue);
  const user = /^(?:i|i'm|i am|i've|my)\b/.test(cue.slice(from, from + 6));
  return { kind: 'remember', from, to: trimTrailing(cue, cue.length), sentence, user };
}

function readAlwaysNever(sentence: Sentence, pos: number, ctx: Context, conditioned: boolean): Omit<Found, 'condition'> | undefined {
  const cue = sentence.cue;
  const m = ALWAYS_NEVER.exec(cue.slice(pos));
  if (!m) return undefined;
  const [cueWords, subject, modal, adverb] = m;
  const word = /^[a-z']+/.exec(cue.slice(skip(FILLER, cue, pos + cueWords.length)))?.[0] ?? '';
  if (!isBaseVerb(word)) return undefined;
  if (subject === 'i' || subject === 'we') {
    if (NOT_PREFERENCES.has(word)) return undefined;
    return { kind: 'always-never', from: pos, to: trimTrailing(cue, cue.length), sentence, user: subject === 'i' };
  }
  // "You always break the build" is a complaint; "you should always …", "you'll never …" are rules.
  if ((subject === 'you' || subject === 'claude') && !modal && !/'(?:ll|d) /.test(cueWords)) return undefined;
  // A bare "Always return UTC" deep in a task is the task's spec; a subject or condition makes it a rule.
  if (!subject && !conditioned && !ctx.bareAllowed) return undefined;
  const from = subject ? pos + cueWords.length - adverb!.length : pos;
  return { kind: 'always-never', from, to: trimTrailing(cue, cue.length), sentence };
}

/** Whether the clause at `pos` gives an order: "read the tests first", not "we might …". */
function imperativeAt(cue: string, pos: number): boolean {
  if (at(RULE_VERB, cue, pos) >= 0 || at(STRONG_RULE, cue, pos) >= 0) return true;
  const word = /^[a-z']+/.exec(cue.slice(pos))?.[0] ?? '';
  return isBaseVerb(word) && !NOT_IMPERATIVE.has(word);
}

function isBaseVerb(word: string): boolean {
  if (word.length < 2 || PAST_OR_REPORT.has(word)) return false;
  if (word.endsWith('ed') && !BASE_FORMS_IN_ED.has(word)) return false;
  if (word.endsWith('s') && !BASE_FORMS_IN_S.test(word)) return false;
  if (word.endsWith("'s") || word.endsWith("n't")) return false;
  return true;
}

/**
 * "X, not Y", "X instead of Y", "X rather than Y" with words on both sides; "do not", "is not",
 * "not sure" are negations, not contrasts.
 */
function hasContrast(cue: string, from: number): boolean {
  const re = /(?:^|[\s,;])(not|instead of|rather than)\s+(\.?[^\s,;.!?]+)/g;
  re.lastIndex = from;
  for (let m = re.exec(cue); m; m = re.exec(cue)) {
    if (m.index < from) continue;
    const before = /([\w'_-]+)[\s,;]*$/.exec(cue.slice(Math.max(from, m.index - 24), m.index + 1));
    if (!before) continue;
    if (m[1] === 'not') {
      if (/^(?:is|are|was|were|do|does|did|should|would|could|can|will|have|has|had|it's|that's|i'm|you're|we're|they're|am|be|been|why|or|and|if|but|just|really|still|definitely|probably|certainly|absolutely)$/.test(before[1]!)) continue;
      if (/^(?:sure|yet|now|really|quite|working|needed|necessary|only|just|even|exactly|always|so|too|very|be)$/.test(m[2]!)) continue;
    }
    return true;
  }
  return false;
}

/** The end of a sentence without its trailing durable words ("from now on", "again", "please"). */
function trimTrailing(cue: string, end: number): number {
  const head = Math.max(0, end - 40);
  const tail = cue.slice(head, end);
  const m = /[\s,]*(?:(?:from now on|going forward|moving forward|from here on(?: out)?|in (?:the )?future|henceforth|(?:ever )?again|anymore|any more|please|thanks|thank you|ok\??)[\s,]*)+[.!]*\s*$/.exec(tail);
  return m ? head + m.index : end;
}

/** Where the trailing "…, remember that" starts. */
function lastCut(cue: string, from: number): number {
  const m = TRAILING_REMEMBER.exec(cue.slice(from));
  return m ? from + m.index : cue.length;
}

function toCorrection(found: Found): Correction | null {
  const { sentence } = found;
  let raw = sentence.text.slice(found.from, found.to);
  if (found.negate) raw = `don't ${raw}`;
  if (found.condition) raw = `${found.condition}, ${raw}`;
  const lesson = cleanLesson(raw);
  const lower = lesson.toLowerCase();
  if (contentWords(lower) < 2) return null;
  if (DEIXIS.test(lower) || /\b(?:this|that)$/.test(lower)) return null;
  if (MOMENT.test(lower)) return null;
  if (found.weak && HERE.test(lower) && !/^we\b/.test(lower)) return null;
  if (found.weak && PRONOUN_SUBJECT.test(lower)) return null;
  if (STEERING.test(lower)) return null;
  const user = found.user ?? /^(?:i|i'm|i am|i'd|i've|my)\b/.test(lower);
  const everywhere = GLOBAL.test(sentence.cue);
  const scope = everywhere || (user && !THIS_PROJECT.test(lower)) ? 'global' : 'project';
  const { description, name } = describeLesson(lesson);
  return { kind: found.kind, type: user ? 'user' : 'feedback', scope, lesson, name, description };
}

function contentWords(lesson: string): number {
  let count = 0;
  for (const word of lesson.split(/[^\p{L}\p{N}'_-]+/u)) {
    if (word.length >= 2 && !STOPWORDS.has(word)) count++;
  }
  return count;
}

/**
 * Where `re` (anchored with ^) stops matching when applied at `pos`, or -1. A slice is a view in
 * V8, not a copy, so this stays linear; and unlike a sticky regex it keeps no lastIndex state.
 */
function at(re: RegExp, text: string, pos: number): number {
  const m = re.exec(pos === 0 ? text : text.slice(pos));
  return m ? pos + m[0].length : -1;
}

/** Past whatever `re` matches at `pos` (pos itself when nothing does). */
function skip(re: RegExp, text: string, pos: number): number {
  const end = at(re, text, pos);
  return end < 0 ? pos : end;
}
