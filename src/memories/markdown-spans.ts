/** Markdown structure claim extraction reads: fences, code spans, words, lines. */
import type { Span } from './claim-kinds.js';

export interface Fence extends Span {
  readonly info: string;
  readonly contentStart: number;
  readonly contentEnd: number;
}

/** Fenced code blocks (``` or ~~~, up to three spaces of indent); an unclosed one runs to the end. */
export function findFences(body: string): Fence[] {
  const fences: Fence[] = [];
  const lines = lineStarts(body);
  let open: { start: number; char: string; length: number; info: string; contentStart: number } | undefined;
  for (const lineStart of lines) {
    const lineEnd = lineEndAt(body, lineStart);
    const line = body.slice(lineStart, lineEnd);
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open) {
      if (match && !(match[1]![0] === '`' && match[2]!.includes('`'))) {
        open = { start: lineStart, char: match[1]![0]!, length: match[1]!.length, info: match[2]!.trim().split(/\s+/)[0] ?? '', contentStart: Math.min(body.length, lineEnd + 1) };
      }
    } else if (match && match[1]![0] === open.char && match[1]!.length >= open.length && match[2]!.trim() === '') {
      fences.push({ start: open.start, end: lineEnd, info: open.info.toLowerCase(), contentStart: open.contentStart, contentEnd: lineStart });
      open = undefined;
    }
  }
  if (open) fences.push({ start: open.start, end: body.length, info: open.info.toLowerCase(), contentStart: open.contentStart, contentEnd: body.length });
  return fences;
}

export interface CodeSpan extends Span {
  readonly contentStart: number;
  readonly contentEnd: number;
}

/**
 * CommonMark code spans: a run of n backticks up to the next run of exactly n. The runs are
 * listed first and matched by length, so a body full of unmatched runs of different lengths
 * costs one pass, not one pass per run.
 */
export function findCodeSpans(body: string, segment: Span): CodeSpan[] {
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = segment.start; i < segment.end; ) {
    if (body[i] !== '`') {
      i++;
      continue;
    }
    let n = 0;
    while (i + n < segment.end && body[i + n] === '`') n++;
    // A backslash before a run makes its first backtick literal.
    const escaped = i > segment.start && body[i - 1] === '\\' && body[i - 2] !== '\\';
    if (!escaped) runs.push({ start: i, length: n });
    else if (n > 1) runs.push({ start: i + 1, length: n - 1 });
    i += n;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((run, index) => {
    const list = byLength.get(run.length);
    if (list) list.push(index);
    else byLength.set(run.length, [index]);
  });
  const cursor = new Map<number, number>();
  const spans: CodeSpan[] = [];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const candidates = byLength.get(open.length)!;
    let at = cursor.get(open.length) ?? 0;
    while (at < candidates.length && candidates[at]! <= i) at++;
    cursor.set(open.length, at);
    if (at >= candidates.length) continue;
    const closeIndex = candidates[at]!;
    const close = runs[closeIndex]!;
    let contentStart = open.start + open.length;
    let contentEnd = close.start;
    const content = body.slice(contentStart, contentEnd);
    if (content.length >= 2 && /^[ \n]/.test(content) && /[ \n]$/.test(content) && content.trim() !== '') {
      contentStart++;
      contentEnd--;
    }
    spans.push({ start: open.start, end: close.start + close.length, contentStart, contentEnd });
    i = closeIndex;
  }
  return spans;
}

export interface Word {
  readonly text: string;
  readonly start: number;
}


export function wordsOf(text: string, offset: number): Word[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({ text: match[0], start: offset + match.index }));
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i + 1 < text.length) starts.push(i + 1);
  return starts;
}

export function lineEndAt(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
}

export function complement(spans: readonly Span[], length: number): Span[] {
  const out: Span[] = [];
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start > at) out.push({ start: at, end: span.start });
    at = Math.max(at, span.end);
  }
  if (at < length) out.push({ start: at, end: length });
  return out;
}
