/**
 * Judges the value a secret-like name stands next to, for the rules that find such pairs
 * (`name = value`, `--name value`, `<name>value</name>`, a JSON key). Bundled into hooks.
 */
import { marker } from './redaction-marker.js';
import { classifyName, type NameClass } from './redaction-names.js';
import { isMarker } from './redaction-rule.js';
import {
  carriesNoSecret, isCodeOrProse, isFilePath, isFunctionWord, isPublicKey, isSecretVariable, looksGenerated, splitQuotes, TEMPLATE,
  UNION_FOLLOWS,
} from './redaction-values.js';

export interface Judged {
  value: string;
  input: string;
  end: number;
  cls: NameClass;
  /** `name: value`, `name = value`, `--name value`: may be code or a sentence. */
  codeLike: boolean;
  /** `name:value` with no space: as often a label (`npm run token:refresh`) as a credential. */
  tight: boolean;
}

/** The replacement text for an assignment's value: the value itself when it is no secret. */
export function judgeValue(j: Judged, kind: string): string {
  const { value, cls } = j;
  if (isMarker(value)) return value;
  const q = splitQuotes(value);
  const after = j.input.slice(j.end, j.end + 16);
  if (q !== null) {
    if (literalIsSafe(q.content, cls) || (j.codeLike && q.close !== '' && UNION_FOLLOWS.test(after))) return value;
    return q.open + marker(kind) + q.close;
  }
  if (literalIsSafe(value, cls)) return value;
  // `ssh_key: ssh-ed25519 AAAA… alice@laptop`: the value stops at the space, the key goes on.
  if (isPublicKey(`${value}${after}`)) return value;
  if (isCodeOrProse(value, { next: after.charAt(0), restOfLine: after, codeLike: j.codeLike })) return value;
  // `Secret: see 1Password`: a sentence goes on after a word no password is.
  if (j.codeLike && isFunctionWord(value)) return value;
  if (j.tight && !/\d/.test(value) && !looksGenerated(value)) return value;
  return marker(kind);
}

/** Whether a literal held under a secret-like name is safe to keep. */
export function literalIsSafe(content: string, cls: NameClass): boolean {
  if (cls === 'none' || carriesNoSecret(content)) return true;
  if (isSecretVariable(content)) return true;
  if (isFilePath(content) || isPublicKey(content)) return true;
  // A weak name (`key`, `auth`, `sig`) needs a value that looks generated, not a template.
  return cls === 'weak' && (!looksGenerated(content) || TEMPLATE.test(content));
}

/**
 * For a string stored under an object key (`{"password": "hunter2"}`): the whole string is
 * the value, so it goes unless the key is innocent or the value carries no secret.
 */
export function redactValueNamed(name: string, value: string): string {
  return literalIsSafe(value, classifyName(name)) ? value : marker('assignment');
}
