/** Control characters and line breaks of every kind: each run becomes one space. */
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Invisible format characters (soft hyphen, zero-width, bidi overrides): dropped, so what a reader sees is what is there. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const ELLIPSIS = '…';

/**
 * A memory's text as data in the SessionStart block: one line, in double quotes, escaped as a
 * JSON string is (and `<`, `>` too, so no tag can open or close around it), at most `max`
 * characters quotes included, cut with `…`. Whatever the text holds — a heading, a list item,
 * a quote, a newline, `</system-reminder>` — it stays inside its quotes on its own line.
 */
export function quoted(text: string, max: number): string {
  const flat = text.replace(INVISIBLE, '').replace(BREAKS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...flat].map(escapeChar);
  let inner = chars.join('');
  if (inner.length + 2 > max) {
    inner = '';
    for (const char of chars) {
      if (inner.length + char.length + ELLIPSIS.length + 2 > max) break;
      inner += char;
    }
    inner = `${inner.trimEnd()}${ELLIPSIS}`;
  }
  return `"${inner}"`;
}

function escapeChar(char: string): string {
  switch (char) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '<':
      return '\\u003c';
    case '>':
      return '\\u003e';
    default:
      // A lone surrogate (cut text, a broken file) is escaped, never written as invalid UTF-16.
      return char.length === 1 && char >= '\ud800' && char <= '\udfff' ? `\\u${char.charCodeAt(0).toString(16)}` : char;
  }
}
