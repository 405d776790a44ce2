/**
 * The top-level fields of a JSON object whose text was cut short (a hook's stdin past
 * STDIN_KEEP): every field whose value ends within the text, and a string value the cut fell in,
 * kept up to the cut (`cutField` names it). A field of another kind the cut fell in is left out.
 * Undefined when the text does not start as an object or breaks before the cut.
 */
export function readCutJsonObject(text: string): { value: Record<string, unknown>; cutField?: string } | undefined {
  const value: Record<string, unknown> = {};
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipSpace(text, i + 1);
  try {
    for (;;) {
      if (i >= text.length) return { value };
      if (text[i] === '}') return { value };
      if (text[i] !== '"') return undefined;
      const keyEnd = scanString(text, i);
      if (keyEnd < 0) return { value };
      const key = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipSpace(text, keyEnd);
      if (i >= text.length) return { value };
      if (text[i] !== ':') return undefined;
      const start = skipSpace(text, i + 1);
      if (start >= text.length) return { value };
      const end = scanValue(text, start);
      if (end < 0) {
        if (text[start] !== '"') return { value };
        value[key] = cutString(text.slice(start + 1));
        return { value, cutField: key };
      }
      value[key] = JSON.parse(text.slice(start, end));
      i = skipSpace(text, end);
      if (text[i] === ',') i = skipSpace(text, i + 1);
      else if (text[i] !== '}' && i < text.length) return undefined;
    }
  } catch {
    return undefined;
  }
}

/** A string's characters up to the cut: a half escape and a half character are dropped. */
function cutString(body: string): string {
  // From the end only: an anchored regex would be tried at every one of megabytes of positions.
  let end = body.length;
  while (end > 0 && body.charCodeAt(end - 1) === 0xfffd) end--;
  let kept = body.slice(0, end);
  const escape = /\\u[0-9a-fA-F]{0,3}$/.exec(kept.slice(-6));
  if (escape) kept = kept.slice(0, kept.length - escape[0].length);
  let slashes = 0;
  while (slashes < kept.length && kept.charCodeAt(kept.length - 1 - slashes) === 0x5c) slashes++;
  if (slashes % 2 === 1) kept = kept.slice(0, -1);
  return JSON.parse(`"${kept}"`) as string;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}

/** Where the string opening at `i` ends (after its quote), or -1 when the text ends first. */
function scanString(text: string, i: number): number {
  // indexOf, not a loop over characters: a cut string is megabytes long.
  for (let from = i + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Where the value starting at `i` ends, or -1 when the text ends first. */
function scanValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return scanString(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        j = scanString(text, j) - 1;
        if (j < 0) return -1;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  const match = /^[^,}\]\s]*/.exec(text.slice(i, i + 64))!;
  const end = i + match[0].length;
  return end >= text.length ? -1 : end;
}
