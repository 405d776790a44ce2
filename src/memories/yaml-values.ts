import { Document, isAlias, isMap, isScalar, isSeq, Scalar, visit, type Node, type ToStringOptions } from 'yaml';

/** A frontmatter value as plain data: what YAML's core schema reads, and what an event can carry. */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

/**
 * A YAML node as plain data, or why it cannot be one without changing when written back: a key that
 * is not text, an anchor or alias (written back, an alias would be copied out), an explicit tag, an
 * integer beyond 2^53, keys in an order a JS object does not keep. `null` for an absent value.
 */
export function toPlain(node: unknown): { value: YamlValue; unfaithful?: string } {
  let unfaithful: string | undefined;
  const note = (why: string) => {
    unfaithful ??= why;
  };
  const convert = (n: unknown): YamlValue => {
    if (n === null || n === undefined) return null;
    if (isAlias(n)) {
      note(`an alias (*${n.source})`);
      return null;
    }
    if (!isScalar(n) && !isMap(n) && !isSeq(n)) {
      note('a value YAML could not resolve');
      return null;
    }
    if (n.anchor) note(`an anchor (&${n.anchor})`);
    if (n.tag) note(`an explicit tag (${n.tag})`);
    if (isScalar(n)) return scalar(n, note);
    if (isSeq(n)) return n.items.map(convert);
    const out: { [key: string]: YamlValue } = {};
    const order: string[] = [];
    for (const pair of n.items) {
      const key = keyOf(pair.key, note);
      order.push(key);
      // defineProperty, not assignment: a key named __proto__ must stay a key.
      Object.defineProperty(out, key, { value: convert(pair.value), enumerable: true, writable: true, configurable: true });
    }
    if (JSON.stringify(Object.keys(out)) !== JSON.stringify(order)) note('keys in an order a JS object does not keep (number-like keys)');
    return out;
  };
  const value = convert(node);
  return unfaithful === undefined ? { value } : { value, unfaithful };
}

/** A mapping key as text, noting keys that are not (numbers, booleans, null, collections). */
export function keyOf(key: unknown, note: (why: string) => void): string {
  if (isScalar(key) && typeof key.value === 'string') {
    if (key.anchor || key.tag) note('an anchor or tag on a key');
    return key.value;
  }
  const shown = isScalar(key) ? String(key.source ?? key.value) : String(key);
  note(`a key that is not text (${shown})`);
  return shown;
}

function scalar(n: Scalar, note: (why: string) => void): YamlValue {
  const v = n.value;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (isUnsafeInteger(v, n.source)) note(`a number too large to keep exactly (${n.source ?? v})`);
    else if (!Number.isFinite(v) && !/^[-+]?\.(?:inf|Inf|INF)$/.test(n.source ?? '') && !Number.isNaN(v)) {
      note(`a number too large to keep (${n.source ?? v})`);
    }
    return v;
  }
  note('a value of an unknown kind');
  return null;
}

/**
 * An integer written out digit by digit beyond 2^53: JS keeps only the nearest double, so the
 * digits (an id, most often) would change when written back. `1e300` is not one: its digits are
 * what any reader gets.
 */
export function isUnsafeInteger(value: number, source: string = String(value)): boolean {
  return Number.isInteger(value) && !Number.isSafeInteger(value) && /^[-+]?(?:[0-9_]+|0x[0-9a-fA-F_]+|0o[0-7_]+)$/.test(source);
}

/** Whether a node or anything inside it carries a comment, which plain data cannot keep. */
export function hasComment(node: unknown): boolean {
  let found = false;
  visit(node as Node, {
    Node(_, n) {
      if (n.comment || n.commentBefore) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
    Pair(_, p) {
      const k = p.key as { comment?: string; commentBefore?: string } | null;
      if (k && typeof k === 'object' && (k.comment || k.commentBefore)) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

export function isPlainValue(value: unknown): value is YamlValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return true;
  if (Array.isArray(value)) return value.every(isPlainValue);
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every(isPlainValue);
}

export const RENDER_OPTIONS: ToStringOptions = {
  lineWidth: 0,
  minContentWidth: 0,
  blockQuote: false,
  flowCollectionPadding: false,
  indent: 2,
};

/**
 * Strings a YAML 1.1 reader (PyYAML, and so many Python tools) would take for something else
 * (`yes`, `off`, `1:30`, `0777`, `1_000`…): written in double quotes, though YAML 1.2 would not
 * need them. Dates stay plain, as Claude Code writes `modified`.
 */
const YAML11_NOT_A_STRING =
  /^(?:[yYnN]|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE|null|Null|NULL|~|=|<<|[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?|\.(?:inf|Inf|INF))|\.(?:nan|NaN|NAN))$/;

/** Starts that YAML 1.2 sometimes allows plain (`---x`, `-x`, `?x`) but that readers and eyes misjudge. */
const INDICATOR_START = /^(?:[-?:,[\]{}#&*!|>'"%@`]|\.\.\.)/;

/** Characters that are legal in a YAML string but that editors, terminals or line counters trip on. */
const AWKWARD = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\uFEFF]|\p{Cs}/u;

/**
 * YAML text for a mapping, deterministic and safe: strings that could be misread (by YAML 1.1
 * readers, or by eyes) are double-quoted with escapes, so every value is one line and no line of
 * the output is ever `---`.
 */
export function stringifyMapping(doc: Document): string {
  visit(doc, {
    Scalar(_, n) {
      if (typeof n.value !== 'string') return;
      const s = n.value;
      if (s !== '' && (YAML11_NOT_A_STRING.test(s) || AWKWARD.test(s) || INDICATOR_START.test(s))) n.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // The writer leaves these raw inside double quotes; escaped, every line stays one line everywhere.
  return doc.toString(RENDER_OPTIONS).replace(/[\u0080-\u009F\u2028\u2029\uFEFF]/g, (c) => {
    if (c === '\u2028') return '\\L';
    if (c === '\u2029') return '\\P';
    if (c === '\u0085') return '\\N';
    if (c === '\uFEFF') return '\\uFEFF';
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;
  });
}
