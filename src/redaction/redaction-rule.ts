/**
 * What a redaction rule is, and the pattern pieces rules are built from. Every rule keeps to
 * the two disciplines described in `redaction-rules.ts`: a marker is never matched again, and no
 * pattern backtracks more than linearly. Zero imports but its sibling: bundled into hooks.
 */
import { MARKER_SOURCE } from './redaction-marker.js';

export interface Rule {
  /** Short name for documentation and tests. */
  name: string;
  /** A global regex; its named groups reach `replace` as `g`. */
  pattern: RegExp;
  /** Returns the replacement for one match: the match itself when it is not a secret. */
  replace(g: Groups, match: string, offset: number, input: string): string;
  /**
   * Given the text in lower case, whether the pattern could match at all: literals every match
   * holds. A hook redacts a few hundred characters in a fresh process, where compiling a
   * pattern costs more than running it; a rule whose literals are absent is not compiled.
   * `tokens()` is the set of token-format literals the text holds, found in one scan.
   */
  needs?: (lower: string, tokens: () => ReadonlySet<string>) => boolean;
}
export type Groups = Record<string, string | undefined>;

export const R = String.raw;

/**
 * A value built on first use. A hook process redacts one small event and exits: building the
 * patterns and tables of rules its text never needs would cost more than redacting it.
 */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

const WHOLE_MARKER = new RegExp(`^${MARKER_SOURCE}$`);
export const isMarker = (s: string): boolean => WHOLE_MARKER.test(s);

// Where a match may begin: not right after one of `chars`, except when that character ends a
// `\n`, `\r` or `\t` escape, which counts as a line break (`printf 'A=1\nDB_PASSWORD=x'`,
// JSON pasted into a prompt). One nested lookbehind rather than an alternation, which would
// cost V8 its fast scan for the literal that follows (20× slower on plain text); placed after
// a literal that was just matched (`--`), it is given that literal as `before`.
export const notAfter = (chars: string, before = ''): string => R`(?<![${chars}](?<!\\[nrt])${before})`;
// Not inside a word and not right after a marker, so that replacing a value never lets a later
// match begin where the original text did not allow one.
export const START = notAfter(R`\w\]-`);

export const QUOTED = R`[fFrRbBuU]{0,2}(?:"(?:[^"\\\r\n]|\\.)*"?|'(?:[^'\\\r\n]|\\.)*'?|${'`'}(?:[^${'`'}\\\r\n]|\\.)*${'`'}?)`;
export const ESC_QUOTED = R`\\(?<eq>["'])(?:(?!\\\k<eq>)[^\r\n])*(?:\\\k<eq>)?`;
// An unquoted value ends at whitespace, quotes, brackets, `,;&` and at a `\n` escape.
export const UNQUOTED = R`(?:\$\{\{[^{}\r\n]{0,200}\}\}|\$\{[^{}\s]{0,200}\}|[^\s"'${'`'},;&<>(){}\[\]\\]|\\(?![nrt]))+`;
// What a secret-named assignment's unquoted value may also hold, glued inside it with no space:
// a `;` or `&` (`password=Xk9;mQz7#vL2`), unless what follows is the next `name=` of a list
// (`a=1;b=2`, `?token=x&user=bob`) or not a value at all (`x;`, `x&&`); and parentheses
// (`pa(ss)W0rd99`) that letters or digits go on after, which a call (`getPass()`,
// `cfg.get(k).trim()`) never does. Never first (`token: &str` is a type). Each alternative
// starts with its own character: linear.
const VALUE_CHAR = R`[^\s"'${'`'},;&<>(){}\[\]\\]`;
export const GLUED_UNQUOTED =
  R`(?![;&(])(?:\$\{\{[^{}\r\n]{0,200}\}\}|\$\{[^{}\s]{0,200}\}|${VALUE_CHAR}|\\(?![nrt])` +
  R`|[;&](?=${VALUE_CHAR})(?![\w.-]{0,80}=)|\([^()\s"'${'`'}]{0,64}\)(?=[A-Za-z0-9]))+`;
// A name that may hold a secret contains one of these; the replacer decides with classifyName.
// Not `dsn`: a DSN's own `password=` inside it must be found, not swallowed with the whole DSN
// (the env rule still takes `SENTRY_DSN=…` whole).
const SECRETISH_WORDS = ['key', 'tok', 'secret', 'pass', 'pwd', 'pw', 'cred', 'auth', 'sig'];
export const SECRETISH = `(?:${SECRETISH_WORDS.join('|')})`;

/** A `needs` that holds when the text contains any of `literals` (lower case). */
export const anyOf =
  (...literals: string[]) =>
  (lower: string): boolean =>
    includesAny(lower, literals);

/**
 * Whether `text` contains one of `literals`. An indexed loop, not `some` with an arrow: every rule's
 * `needs` runs on every string a hook redacts, in a cold process where V8 does not elide the
 * closure `some` is given, and those closures (≈ 20 KB a string) tipped the tool hooks into a
 * scavenge (≈ 5 ms).
 */
export function includesAny(text: string, literals: readonly string[]): boolean {
  for (let i = 0; i < literals.length; i++) if (text.includes(literals[i]!)) return true;
  return false;
}

/** A `needs` for a rule that matches only next to a SECRETISH name, and `also` one of these. */
export const secretishAnd = (...also: string[]) => {
  const secretish = anyOf(...SECRETISH_WORDS);
  const other = anyOf(...also);
  return (lower: string): boolean => other(lower) && secretish(lower);
};
export const secretish = anyOf(...SECRETISH_WORDS);
