import { contentHash } from '../content-hash.js';
import { buildAuditPrompt } from '../distill/audit-prompt.js';
import type { Envelope, StoredEnvelope } from '../events/envelope.js';
import { TurnAuditCompleted, TurnAuditFailed, TurnAuditRequested } from '../events/skill-events.js';
import { projectMemoryDir } from '../paths.js';
import { entriesOf } from '../projections/memories/memories-rows.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';
import type { DistillerDeps } from './distiller.js';

/** What the audit needs from the world: the distiller's LLM, answer parser and redaction. */
export type AuditDeps = Pick<DistillerDeps, 'parse' | 'redact'> & { llm: NonNullable<DistillerDeps['llm']> };

/** How far back before a TurnStopped the audit looks for the turn's prompt: a bound, so a turn costs the same whatever the history. */
const PROMPT_LOOKBACK = 500;
const PROMPT_CAP = 20_000;

/**
 * The post-turn audit (DESIGN.md "Skills"; on only with `ENGRAM_AUDIT=1`, since it spends tokens
 * on every turn): for each finished turn (TurnStopped, not a Stop hook's own continuation), it
 * records the turn (TurnAuditRequested: the prompt before it and the answer the Stop hook kept),
 * asks the distiller's LLM for the turn's durable facts, and records the answer
 * (TurnAuditCompleted, whose facts the memories projection puts through the promotion gate as
 * provisional candidates) or why not (TurnAuditFailed; not retried). Ids derive from the turn,
 * so a round done twice stores each once. It writes no file, and never a skill.
 */
export function turnAuditReactor(deps: AuditDeps): Reactor {
  return {
    name: 'turn-audit',
    reads: ['memories'],
    async react(ctx: ReactorContext): Promise<Envelope[]> {
      if (ctx.from > ctx.to) return [];
      const turns: StoredEnvelope[] = [];
      for await (const batch of ctx.log.read({ from: ctx.from, to: ctx.to })) {
        for (const event of batch) {
          const data = event.data as { stopHookActive?: unknown; answer?: unknown };
          if (event.type === 'TurnStopped' && data.stopHookActive !== true && typeof data.answer === 'string' && data.answer.trim() !== '') turns.push(event);
        }
      }
      const events: Envelope[] = [];
      for (const turn of turns) {
        if (ctx.signal.aborted) break;
        events.push(...(await audit(ctx, deps, turn)));
      }
      return events;
    },
  };
}

async function audit(ctx: ReactorContext, deps: AuditDeps, turn: StoredEnvelope): Promise<Envelope[]> {
  // Already answered (a round done again after a crash, before its cursor was saved): no second call.
  if ((await ctx.log.has([`audit:${turn.id}`]))[0]) return [];
  const answer = (turn.data as { answer: string }).answer;
  const prompt = await promptBefore(ctx, turn);
  const text = buildAuditPrompt({ prompt, answer, index: await indexOf(ctx, turn.project) });
  const envelope = (type: string, schemaVersion: number, id: string, data: unknown): Envelope => ({
    id, type, schemaVersion, ts: ctx.clock.now().toISOString(), session: turn.session, project: turn.project, data,
  });
  await ctx.record([envelope(TurnAuditRequested.type, TurnAuditRequested.schemaVersion, `audit-requested:${turn.id}`, { turnId: turn.id, prompt, answer, promptHash: contentHash(text) })]);
  const outcome = await deps.llm.run(text, ctx.signal);
  // Stopped with the worker: the turn is audited again by the next one, from the same cursor.
  if (ctx.signal.aborted) return [];
  const id = `audit:${turn.id}`;
  if (!outcome.ok) return [envelope(TurnAuditFailed.type, TurnAuditFailed.schemaVersion, id, { turnId: turn.id, reason: outcome.reason.slice(0, 60), detail: outcome.detail.slice(0, 2000) })];
  const parsed = deps.parse(outcome.stdout);
  if (!parsed.ok) return [envelope(TurnAuditFailed.type, TurnAuditFailed.schemaVersion, id, { turnId: turn.id, reason: parsed.reason.slice(0, 60), detail: parsed.detail.slice(0, 2000) })];
  const facts = parsed.answer.candidates.filter((candidate) => (candidate.destination ?? 'memory') === 'memory');
  return [envelope(TurnAuditCompleted.type, TurnAuditCompleted.schemaVersion, id, { turnId: turn.id, raw: deps.redact(outcome.stdout), facts, notes: parsed.notes.slice(0, 20) })];
}

/** The session's last prompt before the turn ended, within PROMPT_LOOKBACK events; '' when none is that close. */
async function promptBefore(ctx: ReactorContext, turn: StoredEnvelope): Promise<string> {
  let prompt = '';
  for await (const batch of ctx.log.read({ from: Math.max(1, turn.seq - PROMPT_LOOKBACK), to: turn.seq - 1 })) {
    for (const event of batch) {
      const data = event.data as { prompt?: unknown };
      if (event.type === 'PromptSubmitted' && event.session === turn.session && typeof data.prompt === 'string') prompt = data.prompt;
    }
  }
  return prompt.slice(0, PROMPT_CAP);
}

/** The project's active memories, so a fact already on file is said the same way and reinforces it. */
async function indexOf(ctx: ReactorContext, project: string): Promise<Array<{ name: string; description: string }>> {
  const memories = ctx.runner.rowsOf('memories');
  return (await entriesOf((prefix) => memories.entries(prefix), projectMemoryDir(project)))
    .filter((entry) => entry.status === 'active' && !entry.archived && entry.tier !== 'episodic')
    .map((entry) => ({ name: entry.name, description: entry.description }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, 150);
}
