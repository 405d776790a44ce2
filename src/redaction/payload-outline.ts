/**
 * What is kept of a hook payload that could not be read: its shape, never its text. Raw stdin
 * holds tool output (`tool_response`), file contents (Write's `content`, Edit's strings) and
 * whatever was pasted, none of which may be stored, redacted or not (DESIGN.md invariant 3):
 * redaction finds secrets, not private text. So each top-level key is kept with its type and
 * size, and only the fields that are short identifiers or paths with their values, redacted.
 */
import { redactCapped } from './redact-capped.js';

// Claude Code's fields whose values say which session, tool or event this was, and nothing of
// what the tool read or wrote.
const SHOWN = new Set([
  'hook_event_name', 'session_id', 'cwd', 'transcript_path', 'tool_name', 'tool_use_id', 'source',
  'trigger', 'reason', 'agent_type', 'permission_mode', 'stop_hook_active', 'is_interrupt',
]);
const VALUE_CAP = 120;
const MAX_KEYS = 30;

/**
 * `{session_id: "abc", tool_name: "Bash", tool_input: object(2 keys), tool_response:
 * object(3 keys)}` for a parsed payload; at most `cap` characters, redacted.
 */
export function payloadOutline(parsed: unknown, cap: number): string {
  let text: string;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) text = shape(parsed);
  else {
    const entries = Object.entries(parsed as Record<string, unknown>);
    const parts = entries.slice(0, MAX_KEYS).map(([key, value]) => {
      // A key outside Claude Code's own names is quoted, control characters escaped.
      const name = /^[\w-]{1,60}$/.test(key) ? key : JSON.stringify(redactCapped(key, 60));
      const shown = SHOWN.has(key) && (typeof value === 'string' || typeof value === 'boolean');
      return `${name}: ${shown ? JSON.stringify(typeof value === 'string' ? redactCapped(value, VALUE_CAP) : value) : shape(value)}`;
    });
    if (entries.length > MAX_KEYS) parts.push(`… ${entries.length - MAX_KEYS} more keys`);
    text = `{${parts.join(', ')}}`;
  }
  return redactCapped(text, cap);
}

function shape(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string(${value.length} chars)`;
  if (Array.isArray(value)) return `array(${value.length} items)`;
  if (typeof value === 'object') return `object(${Object.keys(value).length} keys)`;
  return typeof value;
}
