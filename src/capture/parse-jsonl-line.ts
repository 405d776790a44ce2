import type { JsonlLine } from './read-jsonl-lines.js';

/**
 * One line of a JSONL file read against its schema, or why it is skipped: the rule every reader
 * of Claude Code's files (transcripts, history.jsonl) follows. An empty line (a file ending in
 * two newlines) is no line at all; a last line without its newline that does not parse is one
 * Claude Code is still writing ('cut short'), not a bad one.
 */
export type ParsedJsonlLine<T> =
  | { readonly kind: 'empty' }
  | { readonly kind: 'skip'; readonly reason: 'too long' | 'not JSON' | 'cut short' | 'invalid' }
  | { readonly kind: 'line'; readonly json: unknown; readonly data: T };

export function parseJsonlLine<T>(raw: JsonlLine, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }): ParsedJsonlLine<T> {
  if (raw.kind === 'line' && raw.text.length === 0) return { kind: 'empty' };
  if (raw.kind === 'too-long') return { kind: 'skip', reason: 'too long' };
  let json: unknown;
  try {
    json = JSON.parse(raw.text);
  } catch {
    return { kind: 'skip', reason: raw.ended ? 'not JSON' : 'cut short' };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { kind: 'line', json, data: parsed.data } : { kind: 'skip', reason: 'invalid' };
}
