import { POINTER_CAP } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { redactText } from '../redaction/redact.js';

// What identifies a tool call without its contents, by the input field that names it. Order
// matters: a Bash call has `command` and `description`; the command is the pointer.
const POINTER_FIELDS = [
  'command', 'file_path', 'notebook_path', 'url', 'pattern', 'path', 'query', 'skill',
  'subagent_type', 'description', 'name',
] as const;

/**
 * A pointer to what a tool acted on: a command, a file path, a URL, a pattern; at most
 * POINTER_CAP characters, redacted. Never file contents (Write's `content`, Edit's strings).
 */
export function toolInputPointer(toolName: string, toolInput: unknown): string {
  if (toolInput === null || typeof toolInput !== 'object') {
    return typeof toolInput === 'string' ? pointerText(toolInput) : '';
  }
  const input = toolInput as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of POINTER_FIELDS) {
    const value = input[field];
    if (typeof value === 'string' && value.length > 0) {
      parts.push(value);
      // Grep and Glob: the pattern alone is ambiguous without where it looked.
      if (field === 'pattern' && typeof input.path === 'string') parts.push(`in ${input.path}`);
      break;
    }
  }
  if (parts.length === 0 && toolName === 'TodoWrite' && Array.isArray(input.todos)) {
    parts.push(`${input.todos.length} todos`);
  }
  return pointerText(parts.join(' '));
}

// Only the head of a long input can become the pointer: redacting further would cost a hook
// time for text nobody keeps.
const RAW_WINDOW = POINTER_CAP + 4096;

// Redacted before its lines are joined, while rules that read line structure (a YAML value, a
// heredoc's credential lines) can still see it; then joined, capped and redacted again.
function pointerText(text: string): string {
  const redacted = redactText(text.slice(0, RAW_WINDOW));
  const line = oneLine(redacted);
  // Redaction leaves its own output alone: a pointer already on one line and within its cap is
  // what redactCapped would return, without its second pass.
  return line === redacted && line.length <= POINTER_CAP ? line : redactCapped(line, POINTER_CAP);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
