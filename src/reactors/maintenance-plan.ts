import { contentHash } from '../content-hash.js';
import type { EventDefinition } from '../events/define-event.js';
import type { Envelope } from '../events/envelope.js';
import {
  HygieneReported, MemoriesMaintained, MemoryArchived, MemorySuperseded, MemoryVerified,
} from '../events/memory-events.js';
import type { VerificationStatus } from '../memories/claims.js';
import { compareScoreRows, scoreMemory, scoreRow, type ScoreRow, type VerificationOutcome } from '../memories/scores.js';
import { memoryTokens, nearDuplicates } from '../memories/similarity.js';
import type { HygieneRow, MemoryRow } from '../projections/memories/memory-row.js';

/** What verification found for one memory this tick. */
export interface MemoryCheck {
  claims: Array<{ kind: string; value: string; status: VerificationStatus }>;
  /** The memory's project directory no longer exists. */
  orphaned: boolean;
}

export interface MaintenanceInput {
  /** Every memory the projection holds, archived ones included. */
  memories: readonly MemoryRow[];
  /** The tick's time. */
  now: Date;
  /** By memory id; a memory with no entry was not checked. */
  checks: ReadonlyMap<string, MemoryCheck>;
  /** Each directory's previous hygiene report, so an unchanged one is not recorded again. */
  hygiene: ReadonlyMap<string, HygieneRow>;
}

export interface MaintenancePlan {
  /** What to append, in order, with ids derived from the tick's time: a tick recorded twice is stored once. */
  events: Envelope[];
  /** The score table (`engram maintain --dry-run`), what needs attention first. */
  rows: ScoreRow[];
  /** One line per action, for the command's report. */
  actions: string[];
}

/**
 * The maintenance tick, decided: which memories an active memory's `contradicts` retires, which
 * of two near-duplicates gives way, which have decayed below the archive threshold, what the
 * claims checks found, and each directory's hygiene. Pure: the checks were made before, and
 * `now` is given. Pinned memories are never superseded or archived.
 */
export function planMaintenance(input: MaintenanceInput): MaintenancePlan {
  const { now } = input;
  const at = now.toISOString();
  const events: Envelope[] = [];
  const actions: string[] = [];
  const emit = (definition: EventDefinition, project: string, subject: string, data: unknown) =>
    events.push({ id: `maintain:${at}:${definition.type}:${contentHash(subject)}`, type: definition.type, schemaVersion: definition.schemaVersion, ts: at, session: '', project, data });
  const inForce = (m: MemoryRow) => !m.archived && m.status !== 'superseded';
  const live = input.memories.filter(inForce);
  const retired = new Set<string>();
  const outcomes = (m: MemoryRow): VerificationOutcome[] =>
    (input.checks.get(m.id)?.claims ?? []).map((claim) => ({ claim: { kind: claim.kind as VerificationOutcome['claim']['kind'] }, status: claim.status }));
  const score = (m: MemoryRow) =>
    scoreMemory({ name: m.name, type: m.type, tier: m.tier, confidence: m.confidence, lastReinforced: m.lastReinforced, created: m.created, pinned: m.pinned }, now, { verification: outcomes(m) });

  // An active memory that says another is wrong retires it (a provisional one does not, yet).
  for (const memory of live) {
    if (memory.status !== 'active' || memory.contradicts.length === 0) continue;
    for (const ref of memory.contradicts) {
      const target = live.find((other) => other.id !== memory.id && refersTo(ref, other) && sameScope(memory, other));
      if (!target || target.pinned || retired.has(target.id) || retired.has(memory.id)) continue;
      retired.add(target.id);
      emit(MemorySuperseded, target.project, target.id, { memoryId: target.id, by: memory.id });
      actions.push(`superseded ${target.name} (contradicted by ${memory.name})`);
    }
  }

  // Of two near-duplicates of one directory, the weaker gives way to the stronger.
  const byDir = groupBy(live.filter((m) => m.status === 'active' && !retired.has(m.id)), (m) => m.dir);
  const duplicatesByDir = new Map<string, Array<{ a: string; b: string; similarity: number }>>();
  for (const [dir, memories] of byDir) {
    const pairs = nearDuplicates(memories.map((m) => ({ id: m.id, tokens: memoryTokens(m), memory: m })));
    duplicatesByDir.set(dir, pairs.map((pair) => ({ a: pair.a.id, b: pair.b.id, similarity: Math.round(pair.similarity * 1000) / 1000 })));
    for (const pair of pairs) {
      const [a, b] = [pair.a.memory, pair.b.memory];
      if (retired.has(a.id) || retired.has(b.id) || (a.pinned && b.pinned)) continue;
      const [keep, drop] = b.pinned || score(b).strength > score(a).strength || (score(b).strength === score(a).strength && b.created < a.created) ? [b, a] : [a, b];
      retired.add(drop.id);
      emit(MemorySuperseded, drop.project, drop.id, { memoryId: drop.id, by: keep.id });
      actions.push(`superseded ${drop.name} (a near-duplicate of ${keep.name})`);
    }
  }

  const rows: ScoreRow[] = [];
  const old = new Map<string, string[]>();
  for (const memory of live) {
    const scored = score(memory);
    rows.push(scoreRow({ name: memory.name, type: memory.type, tier: memory.tier, confidence: memory.confidence, lastReinforced: memory.lastReinforced, created: memory.created, pinned: memory.pinned }, now, { verification: outcomes(memory) }));
    if (retired.has(memory.id)) continue;
    if (scored.old && memory.status === 'active') old.set(memory.dir, [...(old.get(memory.dir) ?? []), memory.id]);
    if (scored.archivable) {
      emit(MemoryArchived, memory.project, memory.id, { memoryId: memory.id, reason: 'decayed', strength: Math.round(scored.strength * 1000) / 1000 });
      actions.push(`archived ${memory.name} (strength ${scored.strength.toFixed(2)})`);
    }
  }

  // What the checks found, recorded only where it differs from what the memory already says.
  for (const memory of live) {
    const check = input.checks.get(memory.id);
    if (!check) continue;
    const claims = check.claims.slice(0, 50);
    const penalty = score(memory).penalty;
    const missing = claims.filter((claim) => claim.status === 'missing').map((claim) => `${claim.kind} ${claim.value}`);
    const before = memory.verification;
    if (before && before.penalty === penalty && before.missing.join('\n') === missing.join('\n')) continue;
    if (!before && claims.length === 0) continue;
    emit(MemoryVerified, memory.project, memory.id, { memoryId: memory.id, claims, penalty });
  }

  // Each directory's hygiene, when it differs from the last report.
  const dirs = groupBy(input.memories, (m) => m.dir);
  for (const [dir, memories] of [...dirs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const deadPaths = memories
      .filter((m) => inForce(m) && !retired.has(m.id))
      .map((m) => ({ memoryId: m.id, paths: (input.checks.get(m.id)?.claims ?? []).filter((c) => c.kind === 'path' && c.status === 'missing').map((c) => c.value).slice(0, 20) }))
      .filter((entry) => entry.paths.length > 0);
    const report = {
      dir,
      deadPaths,
      nearDuplicates: (duplicatesByDir.get(dir) ?? []).slice(0, 200),
      old: (old.get(dir) ?? []).slice(0, 500),
      orphaned: memories.some((m) => input.checks.get(m.id)?.orphaned === true),
    };
    const before = input.hygiene.get(dir);
    if (before && JSON.stringify({ ...before, at: undefined }) === JSON.stringify({ ...report, at: undefined })) continue;
    if (!before && report.deadPaths.length + report.nearDuplicates.length + report.old.length === 0 && !report.orphaned) continue;
    emit(HygieneReported, memories[0]!.project, dir, report);
  }

  emit(MemoriesMaintained, '', 'tick', { at });
  return { events, rows: rows.sort(compareScoreRows), actions };
}

function refersTo(ref: string, memory: MemoryRow): boolean {
  const wanted = ref.trim().toLowerCase().replace(/^\[\[|\]\]$/g, '');
  return memory.name.toLowerCase() === wanted || memory.file.toLowerCase() === wanted || memory.file.toLowerCase() === `${wanted}.md` || memory.id === ref;
}

/** A project memory may retire one of its project or a global one; a global one only a global one. */
function sameScope(by: MemoryRow, target: MemoryRow): boolean {
  return target.project === by.project || target.project === '';
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
