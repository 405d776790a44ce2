import type { StoredEnvelope } from '../events/envelope.js';
import { html, type Html } from './html.js';
import { clip } from './layout.js';
import { href, type ViewContext } from './view-context.js';

/** Event types a timeline shows as failures. */
const FAILURES = new Set(['ToolFailed', 'HookInputRejected', 'DistillFailed']);

/**
 * One event as a table row: its seq (linked to the event), time, session (linked to the
 * session's events), and what happened in a line. Fields are read defensively: an event of an
 * older schemaVersion shows what it has rather than failing the page.
 */
export function eventRow(ctx: ViewContext, event: StoredEnvelope): Html {
  const failed = FAILURES.has(event.type) || (event.type === 'ToolCalled' && field(event, 'ok') === false);
  return html`<tr class="ev${failed ? ' fail-row' : ''}" data-type="${event.type}"><td class="n"><a href="${href(ctx, '/event', { seq: event.seq })}">${event.seq}</a></td>
<td class="muted">${event.ts.slice(0, 19).replace('T', ' ')}</td>
<td>${event.session === '' ? '' : html`<a class="session" href="${href(ctx, '/log', { session: event.session })}">${event.session.slice(0, 12)}</a>`}</td>
<td${failed ? html` class="fail"` : ''}>${failed ? '✗ ' : ''}${describe(ctx, event)}</td></tr>`;
}

export function eventTable(ctx: ViewContext, events: readonly StoredEnvelope[], id = 'events'): Html {
  if (events.length === 0) return html`<p class="muted">No events.</p>`;
  return html`<table id="${id}"><thead><tr><th>seq</th><th>when</th><th>session</th><th>what happened</th></tr></thead><tbody>${events.map((e) => eventRow(ctx, e))}</tbody></table>`;
}

function field(event: StoredEnvelope, name: string): unknown {
  const data = event.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
}

function text(event: StoredEnvelope, name: string, chars = 160): string {
  const value = field(event, name);
  return typeof value === 'string' ? clip(value, chars) : '';
}

function memoryLink(ctx: ViewContext, event: StoredEnvelope, label: string): Html {
  const id = field(event, 'memoryId');
  return typeof id === 'string' ? html`<a href="${href(ctx, '/memory', { id })}">${label}</a>` : html`${label}`;
}

function describe(ctx: ViewContext, event: StoredEnvelope): Html {
  switch (event.type) {
    case 'SessionStarted':
      return html`session started <span class="muted">(${text(event, 'source')})</span>`;
    case 'PromptSubmitted':
      return html`<b>prompt</b> “${text(event, 'prompt', 200)}”`;
    case 'ToolCalled':
      return html`<b>${text(event, 'tool', 60)}</b> <code>${text(event, 'input', 120)}</code>`;
    case 'ToolFailed':
      return html`<b>${text(event, 'tool', 60)}</b> failed: ${text(event, 'error', 160)} <code>${text(event, 'input', 80)}</code>`;
    case 'CompactionStarted':
      return html`<b>compaction</b> <span class="muted">(${text(event, 'trigger')})</span>`;
    case 'TurnStopped':
      return html`turn ended`;
    case 'SubagentStopped':
      return html`subagent stopped ${text(event, 'agentType')}`;
    case 'SessionEnded':
      return html`session ended <span class="muted">(${text(event, 'reason')})</span>`;
    case 'HookInputRejected':
      return html`hook input rejected (${text(event, 'hook')}): ${text(event, 'reason')}`;
    case 'DistillCompleted': {
      const answer = field(event, 'answer') as { candidates?: unknown[] } | undefined;
      // An episode written from the trace says so: no LLM read this session.
      if (field(event, 'via') === 'trace') return html`<b>episode from the trace only</b> <span class="muted">(no LLM: nothing was distilled)</span>`;
      return html`<b>distilled</b> by the LLM, ${Array.isArray(answer?.candidates) ? answer.candidates.length : 0} candidates`;
    }
    case 'DistillSkipped':
      return html`distillation skipped: ${text(event, 'reason')}`;
    case 'DistillFailed':
      return html`distillation failed: ${text(event, 'reason')} ${text(event, 'detail', 120)}`;
    case 'DistillRequested':
      return html`distillation requested (${text(event, 'via')})`;
    case 'MemoryProposed':
      return html`memory proposed: ${memoryLink(ctx, event, text(event, 'name', 100))} <span class="muted">(${text(event, 'origin')}, ${text(event, 'status')})</span>`;
    case 'MemoriesRecalled': {
      const ids = field(event, 'memoryIds');
      return html`<a href="${href(ctx, '/recall', { before: event.seq + 1 })}">recalled ${Array.isArray(ids) ? ids.length : 0} memories</a> <span class="muted">(${text(event, 'via')})</span>`;
    }
    default:
      if (event.type.startsWith('Memory')) return html`${memoryLink(ctx, event, event.type.replace(/^Memory/, 'memory ').toLowerCase())} ${text(event, 'reason', 120)}`;
      return html`${event.type}`;
  }
}
