import type { DistilledVia } from './session-record.js';

// Imports a type only: the SessionStart hook bundles this, and every module a hook loads is paid on each start.

/**
 * How far the distiller got with a session, in the words the SessionStart summary, the trace
 * view and the timeline use: "✓" only for an episode an LLM wrote.
 */
export function distilledLabel(distilled: boolean, via: DistilledVia | undefined): string {
  if (!distilled) return 'distilled pending';
  if (via === 'trace') return 'episode from the trace only (no LLM)';
  if (via === 'skipped') return 'too small to distill';
  return 'distilled ✓';
}

/** The one-line trace of a session that the SessionStart summary prints. */
export function traceLine(record: { readonly toolCalls: number }, distilled: boolean, via?: DistilledVia): string {
  return `last session: ${record.toolCalls} tool call${record.toolCalls === 1 ? '' : 's'} · ${distilledLabel(distilled, via)}`;
}
