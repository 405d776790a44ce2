import { describeJsonError } from '../describe-json-error.js';

/**
 * The JSON inside the model's final text. Asked for bare JSON, models still often wrap it in a
 * ```json fence or say a sentence first; both are accepted (and the caller notes it), anything
 * else is not JSON.
 */
export type AnswerJson = { ok: true; value: unknown; unwrapped: 'bare' | 'fence' | 'braces' } | { ok: false; detail: string };

const FENCE = /```[a-zA-Z]*[ \t]*\n([\s\S]*?)\n?```/;

export function answerJson(result: string): AnswerJson {
  const text = result.trim();
  const bare = tryParse(text);
  if (bare.ok) return { ok: true, value: bare.value, unwrapped: 'bare' };
  const fenced = FENCE.exec(text);
  if (fenced) {
    const inner = tryParse(fenced[1]!.trim());
    if (inner.ok) return { ok: true, value: inner.value, unwrapped: 'fence' };
  }
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open >= 0 && close > open) {
    const braces = tryParse(text.slice(open, close + 1));
    if (braces.ok) return { ok: true, value: braces.value, unwrapped: 'braces' };
  }
  return { ok: false, detail: bare.detail };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; detail: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    // By kind and position: the message would quote the answer.
    return { ok: false, detail: describeJsonError(err, text) };
  }
}
