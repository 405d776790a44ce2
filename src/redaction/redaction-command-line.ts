/**
 * Passwords on command lines, where the flag alone says nothing and the program says it all
 * (which program says what is in redaction-programs.ts). Bundled into hooks.
 */
import { marker } from './redaction-marker.js';
import { programs, type Edit, type Scan, type Word } from './redaction-programs.js';
import { anyOf, isMarker, lazy, R, type Rule } from './redaction-rule.js';
import { carriesNoSecret, isProseWord } from './redaction-values.js';

const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A known program, then the rest of its line: the words are read as a shell reads them
 * (quotes, escapes, `&& | ;` between commands), and each command's own scan says which
 * words are passwords. A program named anywhere in a line counts, so that prose quoting a
 * command (`I ran docker login -p …`) is covered too; programs that use a flag for something
 * else are only read after their subcommand (`login`, `config set`).
 */
const pattern = lazy(
  () => new RegExp(R`(?<![\w.\-$])(?<prog>${Object.keys(programs()).map(escape).join('|')})(?![\w.\-=])(?<rest>[^\r\n]*)`, 'gi'),
);

export const commandLineRule: Rule = {
  name: 'command-line',
  get pattern() {
    return pattern();
  },
  replace(g) {
    const text = g.rest!;
    const table = programs();
    let scan: Scan | undefined = table[g.prog!.toLowerCase()];
    // One command on the line, and nothing it needs: nothing to split.
    if (scan?.needs && !/[|;&()`]/.test(text)) {
      const lower = text.toLowerCase();
      if (!scan.needs.some((literal) => lower.includes(literal))) return g.prog! + text;
    }
    const edits: Edit[] = [];
    let words: Word[] = [];
    const finish = () => {
      if (scan) edits.push(...scan(words));
      scan = undefined;
      words = [];
    };
    for (const token of shellWords(text)) {
      if (token === null) finish();
      else if (scan) words.push(token);
      else {
        const name = token.text.slice(token.text.lastIndexOf('/') + 1).toLowerCase();
        if (Object.hasOwn(table, name)) scan = table[name];
      }
    }
    finish();
    let out = text;
    const seen = new Set<number>();
    for (const edit of edits.sort((a, b) => b.word.start + b.from - (a.word.start + a.from))) {
      const at = edit.word.start;
      if (seen.has(at)) continue;
      seen.add(at);
      out = out.slice(0, at) + redactWord(out.slice(at, edit.word.end), edit) + out.slice(edit.word.end);
    }
    return g.prog! + out;
  },
  // Every scan needs a flag, a subcommand or a Windows `/p:`.
  needs: anyOf('-', 'config', 'secrets', 'vault', 'sqlplus', 'net', '/p'),
};

/** The raw word with its value from `from` on replaced, quotes kept; unchanged if no secret. */
function redactWord(raw: string, edit: Edit): string {
  const value = edit.word.text.slice(edit.from);
  // `the docker login -p flag`: prose that names a flag, not a command that uses it.
  if (value === '' || isMarker(value) || carriesNoSecret(value) || isProseWord(value)) return raw;
  // Where `from` characters of unquoted text end in the raw word.
  let i = 0;
  let seen = 0;
  let quote = '';
  while (i < raw.length && seen < edit.from) {
    const c = raw[i]!;
    if (quote === '' && (c === '"' || c === "'")) quote = c;
    else if (c === quote) quote = '';
    else if (c === '\\' && quote !== "'" && i + 1 < raw.length) {
      i++;
      seen++;
    } else seen++;
    i++;
  }
  // Inside quotes already (`"user%pa ss"`), or about to open them (`-p'x'`): keep them.
  const rest = raw.slice(i);
  const open = quote === '' ? (/^["']/.exec(rest)?.[0] ?? '') : '';
  const closing = quote || open;
  const close = closing !== '' && rest.length > open.length && rest.endsWith(closing) ? closing : '';
  return raw.slice(0, i) + open + marker(edit.kind) + close;
}

/**
 * The words of a command line, as a shell splits them; `null` between commands (`&& || | ; &`,
 * brackets, backticks). Linear: each character is looked at once, and a word without quotes or
 * escapes is sliced rather than rebuilt.
 */
function shellWords(line: string): Array<Word | null> {
  const out: Array<Word | null> = [];
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === SPACE || c === TAB) {
      i++;
      continue;
    }
    if (isSeparator(c)) {
      out.push(null);
      i++;
      continue;
    }
    const start = i;
    let plain = true;
    let quote = 0;
    for (; i < line.length; i++) {
      const d = line.charCodeAt(i);
      if (quote !== 0) {
        if (d === quote) quote = 0;
        else if (d === BACKSLASH && quote === DOUBLE) i++;
      } else if (d === DOUBLE || d === SINGLE) {
        quote = d;
        plain = false;
      } else if (d === BACKSLASH) {
        i++;
        plain = false;
      } else if (d === SPACE || d === TAB || isSeparator(d)) break;
    }
    i = Math.min(i, line.length);
    out.push({ start, end: i, text: plain ? line.slice(start, i) : unquote(line.slice(start, i)) });
  }
  return out;
}

const [SPACE, TAB, BACKSLASH, DOUBLE, SINGLE] = [32, 9, 92, 34, 39];
// | ; & ( ) `
const isSeparator = (c: number): boolean => c === 124 || c === 59 || c === 38 || c === 40 || c === 41 || c === 96;

/** A word's text as the program receives it: quotes removed, escapes resolved. */
function unquote(raw: string): string {
  let text = '';
  let quote = '';
  for (let i = 0; i < raw.length; i++) {
    const d = raw[i]!;
    if (quote !== '') {
      if (d === quote) quote = '';
      else if (d === '\\' && quote === '"' && i + 1 < raw.length) text += raw[++i];
      else text += d;
    } else if (d === '"' || d === "'") quote = d;
    else if (d === '\\' && i + 1 < raw.length) text += raw[++i];
    else text += d;
  }
  return text;
}
