import { redactDeep, redactField, redactText } from './redact.js';

// A secret cut in half by the cap could slip past the patterns; redacting a window this much
// longer than the cap first means the cut only ever falls in already-redacted text.
const OVERLAP = 4096;
// Cutting can change how the kept text reads (`token: the quick…` cut to `token: th`), so the
// cut is redacted again; after this many rounds the changed tail is dropped instead.
const ROUNDS = 3;

/**
 * Redacts, then keeps at most `cap` characters, without redacting megabytes nobody keeps.
 *
 * What comes out is what redaction leaves alone (`redactText(out) === out`), so no later pass
 * over a stored string can grow it past its cap; and it never ends in half a marker.
 */
export function redactCapped(text: string, cap: number): string {
  let out = redactText(text.length <= cap ? text : text.slice(0, cap + OVERLAP));
  // Whether `out` is what redaction made of something, which redaction leaves alone.
  let redacted = true;
  for (let round = 0; ; round++) {
    const cut = capText(out, cap);
    if (redacted && cut === out) return cut;
    const again = redactText(cut);
    if (again === cut) return cut;
    // Each fallback round keeps a strictly shorter prefix, so this ends (at worst at '').
    redacted = round < ROUNDS;
    out = redacted ? again : cut.slice(0, Math.min(firstDifference(cut, again), cut.length - 1));
  }
}

/**
 * At most `cap` characters of `text`, cut where it does no damage: never inside a marker
 * (`[REDACTED:gith` reads like damage) nor between the two halves of a surrogate pair. Does not
 * redact: for text that already was.
 */
export function capText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  let cut = text.slice(0, cap);
  // A marker holds no `[`: the last one in the cut opens the marker the cut may fall in.
  const open = cut.lastIndexOf('[');
  if (open >= 0 && cut.indexOf(']', open) < 0 && text.startsWith('[REDACTED:', open)) cut = cut.slice(0, open);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * `redactDeep`, except that no string comes out longer than it went in: for strings already
 * stored at their cap (a hook's last safety pass, a log migration), where a marker longer than
 * the secret it replaces would break the cap. What does not fit is cut as `redactCapped` cuts.
 */
export function redactDeepNoLonger(value: unknown): unknown {
  return redactDeep(value, (text, key) => {
    const redacted = redactField(text, key);
    if (redacted.length <= text.length) return redacted;
    const capped = redactCapped(text, text.length);
    // Unchanged by the text rules: the key named it a secret, and the whole string goes.
    return capped === text ? capText(redacted, text.length) : capped;
  });
}
