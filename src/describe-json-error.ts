/**
 * What went wrong in a text that is not JSON, said by kind and position only. V8's messages
 * quote the input (`Unexpected token 'g', "ghp_aB3dE5"... is not valid JSON`), and the input
 * is whatever reached engram: a hook's stdin, a spool file, an LLM's answer, a file on disk. No
 * error message may quote it (DESIGN.md invariant 3), redacted or not. No imports: hooks use it.
 */
export function describeJsonError(err: unknown, text: string): string {
  const message = err instanceof Error ? err.message : '';
  const length = text.length;
  if (length === 0 || text.trim() === '') return 'not JSON: it is empty';
  const at = /at position (\d+)/.exec(message)?.[1];
  const where = at === undefined ? ` (${length} characters)` : ` at character ${at} of ${length}`;
  // A string still open where the text stops is the text cut short (a torn write), as is an end
  // before the JSON's own.
  const cut = /Unterminated string/i.test(message) && (at === undefined || Number(at) >= length - 1);
  if (cut || /end of JSON input/i.test(message)) return `not JSON: it ends before its JSON does (${length} characters; cut short?)`;
  if (/Unterminated string/i.test(message)) return `not JSON: a string is never closed${where}`;
  if (/non-whitespace character after JSON/i.test(message)) return `not JSON: more text after the JSON value${where}`;
  if (/control character/i.test(message)) return `not JSON: a control character inside a string${where}`;
  if (/Expected property name/i.test(message)) return `not JSON: a property name is missing or unquoted${where}`;
  if (/Expected ',' or|Expected ':'|after (?:array element|property value)/i.test(message)) return `not JSON: a comma, colon or bracket is missing${where}`;
  if (/Bad (?:escaped character|Unicode escape)/i.test(message)) return `not JSON: a bad escape inside a string${where}`;
  if (/Unexpected token|Unexpected character|Unexpected number|Unexpected string/i.test(message)) return `not JSON: an unexpected character${where}`;
  return `not JSON${where}`;
}
