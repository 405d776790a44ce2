/**
 * The one-line trace of a session, as the trace view stores it and the SessionStart hook prints
 * it. Imports nothing: the hook bundles it, and every module a hook loads is paid on each start.
 */
export function traceLine(record: { readonly toolCalls: number }, distilled: boolean): string {
  return `last session: ${record.toolCalls} tool call${record.toolCalls === 1 ? '' : 's'} · distilled ${distilled ? '✓' : 'pending'}`;
}
