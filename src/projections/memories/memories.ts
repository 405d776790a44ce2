import { heldForUser } from '../../distill/addresses-agent.js';
import { detectCorrection } from '../../capture/correction-detector.js';
import type { DomainEvent } from '../../events/catalog.js';
import { defineProjector } from '../projector.js';
import { rowChange } from '../row-change.js';
import type { DirRow, MemoryRow } from './memory-row.js';
import { answerRoute, promote, promoteAuditedFacts } from './promotion-gate.js';
import { teamMemory } from './team-memory.js';
import { heldId, later, propose, reinforce, stampOf, update } from './memory-changes.js';
import { editMemory } from './edit-memory.js';
import { DIRS, MAINTAINED, hygieneKey, memoryKey, rowAt, type MemoriesKey, type MemoriesRow } from './memories-rows.js';

export { MAINTAINED, hygieneKey, memoryKey, dirKey, isMemoryKey, isDirKey, memoryIdOf, type MemoriesRow } from './memories-rows.js';

/** DESIGN.md: a lesson the correction detector found starts active, at this confidence. */
const CORRECTION_CONFIDENCE = 0.6;

/**
 * The memories: one row per memory (its file in Claude Code's memory directory, or in
 * `_archive/`) and one for its directory's index, one per directory (its MEMORY.md), and the
 * token and file-name rows that let a proposal look at its own tokens only (memories-rows.ts). Pure: a new memory that says what an existing
 * one of its directory and type already says reinforces that one instead; archiving and
 * superseding move a memory, never delete it; a pinned memory is never archived or superseded
 * by the maintenance tick.
 */
export const memoriesProjector = defineProjector<MemoriesRow>({
  name: 'memories',
  // 2: text that addresses the agent from tool output, a file or an LLM stays provisional (heldForUser).
  // 3: a directory's entries in rows of their own, a token index and a file-name index (flat proposals).
  // 4: the earlier telling of a lesson is the memory whatever the fold order (aliases, edited fields), modified the latest event's time.
  // 5: concurrent changes fold alike in any order: an edited field is the latest edit's, a confidence edit counts only later reinforcements, reinforcements count while archived, the earlier archive stands.
  // 6: each memory's place in MEMORY.md in rows of its own (rank:, arch:, inline:), so the index reads what it shows.
  projectorVersion: 6,
  handles: [
    'PromptSubmitted', 'MemoryProposed', 'MemoryReinforced', 'MemoryCorroborated', 'MemoryEdited', 'MemoryPinned', 'MemoryUnpinned',
    'MemorySuperseded', 'MemoryArchived', 'MemoryForgotten', 'MemoryRestored', 'MemoriesMaintained', 'MemoryVerified',
    'HygieneReported', 'DistillCompleted', 'RouteAccepted', 'RouteDeclined', 'MemoryGraphed',
    'SkillSuggestionAccepted', 'SkillSuggestionDeclined', 'TurnAuditCompleted', 'TeamMemoryReceived',
  ],
  evolve(state, event) {
    switch (event.type) {
      case 'PromptSubmitted': {
        // The detector is pure and runs on the prompt as stored, so a replay finds the same lessons.
        const correction = state.facts ? state.facts.of(event, correctionIn) : correctionIn(event);
        if (!correction) return [];
        return propose(state, event, {
          memoryId: `correction:${event.id}`,
          origin: 'correction',
          scope: correction.scope,
          name: correction.name,
          description: correction.description,
          type: correction.type,
          body: `${correction.lesson}\n`,
          status: 'active',
          confidence: CORRECTION_CONFIDENCE,
        });
      }
      case 'MemoryProposed':
        return propose(state, event, event.data);
      case 'MemoryReinforced':
        return update(state, event, event.data.memoryId, (row) => reinforce(row, event.ts, event.data.by, stampOf(event)));
      case 'MemoryCorroborated':
        return update(state, event, event.data.memoryId, (row) => (row.status === 'provisional' && !heldForUser(row) ? { ...row, status: 'active', modified: later(row.modified, event.ts) } : row));
      case 'MemoryEdited':
        return editMemory(state, event);
      case 'MemoryPinned':
        return update(state, event, event.data.memoryId, (row) => (row.pinned ? row : { ...row, pinned: true, modified: later(row.modified, event.ts) }));
      case 'MemoryUnpinned':
        return update(state, event, event.data.memoryId, (row) => (row.pinned ? { ...row, pinned: false, modified: later(row.modified, event.ts) } : row));
      case 'MemorySuperseded': {
        const by = rowAt(state, memoryKey(heldId(state, event.data.by)));
        return update(state, event, event.data.memoryId, (row) =>
          row.pinned || row.status === 'superseded'
            ? row
            : {
              ...row,
              status: 'superseded',
              supersededBy: by?.name ?? event.data.by,
              supersededAt: event.ts,
              archived: row.archived ?? { at: event.ts, reason: `superseded by ${by?.name ?? event.data.by}` },
              modified: later(row.modified, event.ts),
            },
        );
      }
      case 'MemoryArchived':
        return update(state, event, event.data.memoryId, (row) =>
          row.pinned ? row : archive(row, event.ts, event.data.reason),
        );
      case 'MemoryForgotten':
        // The user's word: even a pinned memory goes, to _archive/, never further.
        return update(state, event, event.data.memoryId, (row) =>
          archive(row, event.ts, `forgotten: ${event.data.reason}`),
        );
      case 'MemoryRestored':
        return update(state, event, event.data.memoryId, (row) =>
          row.archived || row.status === 'superseded'
            ? { ...row, archived: undefined, status: row.status === 'superseded' ? 'active' : row.status, supersededBy: undefined, supersededAt: undefined, modified: later(row.modified, event.ts) }
            : row,
        );
      case 'MemoriesMaintained': {
        const dirs = rowAt(state, DIRS) ?? [];
        const rescored = dirs.flatMap((key) => {
          // DIRS holds keys made by dirKey.
          const dir = rowAt(state, key as MemoriesKey<DirRow>);
          return dir && event.data.at > dir.asOf ? [rowChange<MemoriesRow>(key, { ...dir, asOf: event.data.at })] : [];
        });
        return [...rescored, rowChange<MemoriesRow>(MAINTAINED, { at: event.data.at })];
      }
      case 'MemoryVerified': {
        const { data } = event;
        const missing = data.claims.filter((claim) => claim.status === 'missing').map((claim) => `${claim.kind} ${claim.value}`);
        // Not a change of the memory itself: `modified` stays, so its file says when a person or a lesson changed it.
        return update(state, event, data.memoryId, (row) =>
          row.verification?.penalty === data.penalty && sameList(row.verification.missing, missing)
            ? row
            : { ...row, verification: { at: event.ts, penalty: data.penalty, missing } },
        );
      }
      case 'DistillCompleted':
        return promote(state, event);
      case 'MemoryGraphed':
        return update(state, event, event.data.memoryId, (row) => ({ ...row, graph: event.data.graph }));
      case 'RouteAccepted':
      case 'RouteDeclined':
        return answerRoute(state, event);
      case 'SkillSuggestionAccepted':
      case 'SkillSuggestionDeclined': {
        const implementedIn = event.type === 'SkillSuggestionAccepted' ? event.data.skill : 'declined';
        // The memory stays where it is, recalled as before: only the suggestion stops.
        return update(state, event, event.data.memoryId, (row) => (row.implementedIn === implementedIn ? row : { ...row, implementedIn, modified: later(row.modified, event.ts) }));
      }
      case 'TurnAuditCompleted':
        return promoteAuditedFacts(state, event);
      case 'TeamMemoryReceived':
        return teamMemory(state, event);
      case 'HygieneReported':
        return [rowChange<MemoriesRow>(hygieneKey(event.data.dir), { ...event.data, at: event.ts })];
      default:
        return [];
    }
  },
});

/**
 * What the correction detector finds in a prompt event: a pure function of the prompt, asked of
 * the runner's EventFacts where there is one, so that the lanes that fold the memories rows
 * (summary, recall index, graph, skill suggestions, vectors) do not each run it over every prompt again.
 */
function correctionIn(event: Extract<DomainEvent, { type: 'PromptSubmitted' }>): ReturnType<typeof detectCorrection> {
  return detectCorrection(event.data.prompt);
}

/**
 * A memory archived at `at` for `reason`. Archived already, the earlier archive stands (two
 * machines that each archived it agree whatever the order); `modified` is the latest either way.
 */
function archive(row: MemoryRow, at: string, reason: string): MemoryRow {
  const earlier = row.archived === undefined || at < row.archived.at || (at === row.archived.at && reason < row.archived.reason);
  const modified = later(row.modified, at);
  if (earlier) return { ...row, archived: { at, reason }, modified };
  return modified === row.modified ? row : { ...row, modified };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
