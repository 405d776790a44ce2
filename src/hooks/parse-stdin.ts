import { readCutJsonObject } from './read-cut-json.js';
import type { StdinRead } from './read-stdin.js';

/**
 * A hook's stdin as JSON: parsed whole when it was read whole; when it was cut (past
 * STDIN_KEEP), its fields up to the cut, the one the cut fell in named. Throws as JSON.parse
 * does when it is not JSON.
 */
export function parseStdin(stdin: StdinRead): { value: unknown; cutField?: string | undefined } {
  const text = stdin.bytes.toString('utf8');
  if (stdin.total <= stdin.bytes.length) return { value: JSON.parse(text) };
  const read = readCutJsonObject(text);
  if (!read) throw new SyntaxError(`Unexpected end of JSON input (cut after ${stdin.bytes.length} of ${stdin.total} bytes)`);
  return read;
}
