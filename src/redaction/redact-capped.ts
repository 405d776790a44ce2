import { redactText } from './redact.js';

// A secret cut in half by the cap could slip past the patterns; redacting a window this much
// longer than the cap first means the cut only ever falls in already-redacted text.
const OVERLAP = 4096;

/** Redacts, then keeps at most `cap` characters, without redacting megabytes nobody keeps. */
export function redactCapped(text: string, cap: number): string {
  if (text.length <= cap) return redactText(text);
  const cut = redactText(text.slice(0, cap + OVERLAP)).slice(0, cap);
  // Not half a marker at the end: `[REDACTED:gith` reads like damage.
  const open = cut.lastIndexOf('[REDACTED:');
  return open >= 0 && cut.indexOf(']', open) < 0 ? cut.slice(0, open) : cut;
}
