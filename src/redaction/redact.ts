/**
 * Redaction: every string a hook writes passes through here first (DESIGN.md invariant 3,
 * "Nothing secret is written"). The rules, and why each is shaped the way it is, live in
 * `redaction-rules.ts` (which judges names and values with `redaction-names.ts` and
 * `redaction-values.ts`); this file applies them. They import only each other: all
 * are bundled into hook processes whose budget is Node's own start time.
 *
 * Guarantees, each tested in test/redact.test.ts:
 * - Recall over precision: when unsure whether a value is a secret, it goes. Ordinary text —
 *   paths, code, prose, commands, URLs without credentials, hashes — comes out byte-identical.
 * - What surrounds a secret stays readable: `Authorization: Bearer [REDACTED:bearer]`,
 *   `https://alice:[REDACTED:url-credentials]@host`, `API_KEY=[REDACTED:env]`.
 * - Idempotent: `redactText(redactText(x)) === redactText(x)`; a marker is never redacted again.
 * - Linear time: a megabyte of adversarial text takes milliseconds, not minutes.
 */
import { RULES, redactValueNamed, type Groups, type Rule } from './redaction-rules.js';
import { tokenLiteralsIn } from './redaction-token-formats.js';

/** Replaces every secret in `text` with `[REDACTED:<kind>]`, keeping the text around it. */
export function redactText(text: string): string {
  // A rule that let a value stand can see it again once a later rule has put a marker inside
  // it, and judge the new text differently. Passes repeat until nothing changes; a pass that
  // changes something turns more of the text into markers, so this ends, almost always after
  // the one pass that confirms the first (one text in 100,000 of the fuzzed kind needs a third).
  let out = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = redactOnce(out);
    if (next === undefined) break;
    out = next;
  }
  return out;
}

const MAX_PASSES = 8;

// Up to this length a rule's `needs` is checked before its pattern runs: what a hook redacts.
// Past it, checking every rule's literals costs more than running the patterns.
const GATED = 64 * 1024;

/** One pass of every rule over `text`; undefined when no rule changed anything. */
function redactOnce(text: string): string | undefined {
  let out = text;
  let lower: string | undefined;
  let tokens: ReadonlySet<string> | undefined;
  const tokensIn = () => (tokens ??= tokenLiteralsIn(lower!));
  let changedAny = false;
  for (const rule of RULES) {
    if (rule.needs && out.length <= GATED) {
      lower ??= out.toLowerCase();
      if (!rule.needs(lower, tokensIn)) continue;
    }
    const next = applyRule(rule, out);
    if (next !== undefined) {
      out = next;
      lower = undefined;
      tokens = undefined;
      changedAny = true;
    }
  }
  return changedAny ? out : undefined;
}

/**
 * `text` with `rule` applied; undefined when it changed nothing. A function of its own: were the
 * replacer written in redactOnce's loop, every rule (95) would cost a closure context per string
 * even when its `needs` skips it, ≈ 8 KB a string in a hook's cold process (see includesAny).
 */
function applyRule(rule: Rule, text: string): string | undefined {
  // Tracked per match: comparing two megabyte strings after every rule costs more.
  let changed = false;
  const next = text.replace(rule.pattern, (match: string, ...args: unknown[]) => {
    // The groups object comes last only when the pattern names a group.
    const named = typeof args[args.length - 1] === 'object';
    const at = named ? args.length - 1 : args.length;
    const groups = (named ? args[at] : {}) as Groups;
    const replacement = rule.replace(groups, match, args[at - 2] as number, args[at - 1] as string);
    if (replacement !== match) changed = true;
    return replacement;
  });
  return changed ? next : undefined;
}

/**
 * One string as `redactDeep` redacts it: its text, and under a secret-named key (`{"password":
 * "hunter2"}`) the whole string, since the name that gave it away is a key rather than part of it.
 */
export function redactField(value: string, key: string | undefined): string {
  const redacted = redactText(value);
  return key === undefined || redacted !== value ? redacted : redactValueNamed(key, value);
}

/**
 * A copy of `value` with every string in it redacted by `field`, at any depth; keys are kept.
 * `key` is the name `value` itself is stored under, when it is one field of a bigger object.
 */
export function redactDeep(value: unknown, field: (value: string, key: string | undefined) => string = redactField, key?: string): unknown {
  return deep(value, key, new WeakMap(), field);
}

function deep(
  value: unknown,
  key: string | undefined,
  seen: WeakMap<object, unknown>,
  field: (value: string, key: string | undefined) => string,
): unknown {
  if (typeof value === 'string') return field(value, key);
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(deep(item, undefined, seen, field));
    return copy;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [k, v] of Object.entries(value)) copy[k] = deep(v, k, seen, field);
  return copy;
}
