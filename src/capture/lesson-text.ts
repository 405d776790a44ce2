/**
 * How a lesson cut from a prompt is written down: as plain one-line text (no markdown, markup,
 * control characters or double quotes, so it can be quoted in context and listed in MEMORY.md as
 * data), and as a canonical description in which two phrasings of the same rule share their words
 * ("don't use npm" and "stop using npm" both read "Never use npm"), so a repeated lesson
 * reinforces the memory it matches instead of making another. Pure; no imports.
 */

export const LESSON_CAP = 200;
export const DESCRIPTION_CAP = 150;
export const NAME_CAP = 60;

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
const REDACTION_MARKER = /^\[REDACTED:[a-z0-9-]{1,40}\]/;

/** Plain, one-line, capped text: what a person said, with the markup taken out. */
export function cleanLesson(raw: string): string {
  // Markup and runs of spaces come out, so the cap is reached well within this much of the raw text.
  let text = (raw.length > LESSON_CAP * 5 ? raw.slice(0, LESSON_CAP * 5) : raw).replace(INVISIBLE, ' ');
  // [text](url) reads as its text; images and autolinks likewise.
  text = text.replace(/!?\[([^\]\n]{0,200})\]\([^)\n]{0,500}\)/g, '$1');
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '[') {
      const marker = REDACTION_MARKER.exec(text.slice(i, i + 52));
      if (marker) {
        out.push(marker[0]);
        i += marker[0].length - 1;
        continue;
      }
      out.push('(');
    } else if (c === ']') out.push(')');
    else if (c === '`' || c === '*' || c === '\\') continue;
    else if (c === '"' || c === '\u201c' || c === '\u201d' || c === '\u00ab' || c === '\u00bb' || c === '\u201e') out.push("'");
    else if (c === '<') out.push('\u2039');
    else if (c === '>') out.push('\u203a');
    else out.push(c);
  }
  text = out.join('').replace(/\s+/g, ' ');
  // Leading list markers, headings and quote marks, and trailing punctuation, are not the rule.
  text = text.replace(/^[\s#\u203a\-+•·:,;.!]+/, '').replace(/[\s,;:.!?\-—–]+$/, '');
  return cap(text, LESSON_CAP);
}

/** Cuts at a word boundary, marking the cut. */
export function cap(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  const space = cut.lastIndexOf(' ');
  const head = space > limit / 2 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,;:.!\-—–]+$/, '')}…`;
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
  };
  if (known[gerund]) return known[gerund]!;
  const stem = gerund.slice(0, -3);
  return /([bdgmnprt])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}

/**
 * One canonical line for the lesson: prohibitions as "never …", "instead of" as ", not", the
 * politeness and the "always" of a rule dropped, first letter capitalised.
 */
export function describeLesson(lesson: string): { description: string; name: string } {
  let text = lesson.replace(/[\u2018\u2019]/g, "'");
  let previous = '';
  while (previous !== text) {
    previous = text;
    text = text
      .replace(/^(?:please|just|so|and|also|then|claude|ok|okay),?\s+/i, '')
      .replace(/^(?:you|claude)\s+(?:should|must|need to|have to|'ve got to|ought to|will|'ll)\s+/i, '')
      .replace(/^you'(?:ll|d)\s+/i, '')
      .replace(/^i (?:want|need|'d like|would like) you to\s+/i, '')
      .replace(/^(?:make sure|be sure)\s+(?:to|you|that you)\s+/i, '')
      .replace(/^we\s+(?=(?:always|never|use|prefer|only|don't|do not)\b)/i, '')
      .replace(/^always\s+/i, '');
  }
  text = text
    .replace(/^(?:don't|do not|dont|never)(?:\s+ever)?\s+/i, 'never ')
    .replace(/^(?:avoid|stop|quit)\s+([a-z]+ing)\b/i, (_, gerund: string) => `never ${baseVerb(gerund.toLowerCase())}`)
    .replace(/^not to\s+/i, 'never ')
    .replace(/\s+(?:instead of|rather than)\s+/gi, ', not ')
    .replace(/\s*,\s*/g, ', ')
    .replace(/,\s*,/g, ',')
    .replace(/\s+(?:ever again|again|anymore|any more|from now on|going forward)$/i, '');
  text = text.replace(/^never\s+([a-z]+ing)\b/i, (_, gerund: string) => `never ${baseVerb(gerund.toLowerCase())}`);
  // "never use moment, use date-fns instead" says what "use date-fns, not moment" says.
  const swap = /^never use ([^,;]{1,60})[,;] (?:we )?(?:use|prefer) ([^,;]{1,60}?)(?: instead)?$/i.exec(text);
  if (swap) text = `use ${swap[2]}, not ${swap[1]}`;
  const description = cap(capitalise(text), DESCRIPTION_CAP);
  const name = cap(description.replace(/[.!]+$/, ''), NAME_CAP);
  return { description, name };
}

function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}
