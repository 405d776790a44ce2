import type { Envelope } from '../../src/events/envelope.js';

export const SHOP = '/home/dev/src/shop';
export const API = '/home/dev/src/api';
/** A memory body that would run script if the viewer did not escape it. */
export const HOSTILE_BODY = 'Use pnpm, not npm.\n<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"> & <b>not bold</b>\n';

/**
 * A small history for the viewer's tests: two projects over two days, prompts, tool calls, a
 * failure, a compaction, a distillation skipped, three memories (one with markup in its body,
 * one provisional, one later forgotten) and a recall with its signals and what the cut left out.
 */
export function viewerHistory(): Envelope[] {
  const events: Envelope[] = [];
  let n = 0;
  const at = (iso: string, session: string, project: string, type: string, schemaVersion: number, data: unknown, id?: string) =>
    events.push({ id: id ?? `viewer-test-${String(++n).padStart(4, '0')}`, type, schemaVersion, ts: iso, session, project, data });
  const alpha = 'alpha-0000-session';
  const beta = 'beta-0000-session';
  at('2026-11-01T09:00:00.000Z', alpha, SHOP, 'SessionStarted', 1, { source: 'startup' });
  at('2026-11-01T09:01:00.000Z', alpha, SHOP, 'PromptSubmitted', 2, { prompt: 'please run the checkout tests', chars: 29, truncated: false });
  at('2026-11-01T09:02:00.000Z', alpha, SHOP, 'ToolCalled', 1, { tool: 'Bash', input: 'npm test', ok: true });
  at('2026-11-01T09:03:00.000Z', alpha, SHOP, 'ToolFailed', 1, { tool: 'Bash', input: 'npm run lint', error: 'Exit code 1: lint failed' });
  at('2026-11-01T09:04:00.000Z', alpha, SHOP, 'CompactionStarted', 1, { trigger: 'auto' });
  const memory = (iso: string, memoryId: string, name: string, type: string, status: string, origin: string, body: string, session = '') =>
    at(iso, session, SHOP, 'MemoryProposed', 1, { memoryId, origin, scope: 'project', name, description: name.toLowerCase(), type, body, status, confidence: status === 'active' ? 0.9 : 0.3 });
  memory('2026-11-01T09:05:00.000Z', 'm-pnpm', 'Use pnpm', 'feedback', 'active', 'user', HOSTILE_BODY);
  memory('2026-11-01T09:06:00.000Z', 'm-cents', 'Money in cents', 'project', 'active', 'user', 'Amounts are integer cents.\n');
  at('2026-11-01T09:07:00.000Z', alpha, SHOP, 'PromptSubmitted', 2, { prompt: 'which package manager do we use here', chars: 36, truncated: false }, 'viewer-test-prompt-1');
  at('2026-11-01T09:07:00.000Z', alpha, SHOP, 'MemoriesRecalled', 1, {
    memoryIds: ['m-pnpm'], promptHash: 'abcd1234', via: 'worker', signals: [['bm25', 'graph:pnpm']],
    leftOut: [{ id: 'm-cents', score: 0.12, signals: ['bm25'], why: 'below-cut' }],
  }, 'viewer-test-prompt-1.recalled');
  at('2026-11-01T09:30:00.000Z', alpha, SHOP, 'SessionEnded', 1, { reason: 'prompt_input_exit' });
  at('2026-11-01T09:31:00.000Z', alpha, SHOP, 'DistillSkipped', 1, { upToSeq: 10, reason: 'trivial session' });
  at('2026-11-02T10:00:00.000Z', beta, API, 'SessionStarted', 1, { source: 'startup' });
  at('2026-11-02T10:01:00.000Z', beta, API, 'PromptSubmitted', 2, { prompt: 'add a health endpoint', chars: 21, truncated: false });
  at('2026-11-02T10:02:00.000Z', beta, API, 'ToolCalled', 1, { tool: 'Edit', input: 'src/health.ts', ok: true });
  memory('2026-11-02T10:03:00.000Z', 'm-guess', 'Health checks return JSON', 'project', 'provisional', 'distiller', 'The health endpoint answers JSON.\n', beta);
  at('2026-11-02T10:04:00.000Z', '', SHOP, 'MemoryForgotten', 1, { memoryId: 'm-cents', reason: 'we moved to decimals' });
  return events;
}
