/**
 * Strength, staleness and the archive rule of DESIGN.md "Scores". Pure: the time is always
 * passed in, verification results come from the caller, so a reactor can record what it decided
 * and a replay decides the same. Hooks may import this file.
 *
 * What "age" means here: days since the memory was last confirmed, the same anchor for strength
 * and staleness, so the two never disagree about time (they differ by confidence and penalties).
 * The anchor is `last_reinforced`, or `created` when the memory was never reinforced (making it
 * was its first confirmation); when both are set, the later one (a hand-made file can carry a
 * `last_reinforced` older than its `created`). Claude Code's own `metadata.modified` counts only
 * when neither is set: it changes whenever the file is rewritten, engram's own rewrites included,
 * so it says when bytes changed, not when anyone re-stated the lesson; but for a native file it is
 * the only date there is. Dates are ISO 8601 (a bare day or a date-time without a zone is UTC, so
 * a replay in another time zone ages alike); anything else counts as missing; a date after `now` counts as
 * age 0. A memory with no usable date is "undated": it keeps its confidence as strength and
 * staleness adds only penalties, and no time-based action (archive, re-verify) is ever taken on
 * it: the age is unknown, not guessed. Importers stamp `created`, so this is rare.
 */
import type { ClaimKind, VerificationStatus } from './claims.js';
import type { MemoryType, Tier } from '../events/memory-kinds.js';

const DAY_MS = 86_400_000;

export interface ScoringTable {
  /** Half-life in days of a memory without a tier, by its type. */
  readonly halfLifeDaysByType: Readonly<Record<MemoryType, number>>;
  /** Half-life in days of a memory with a tier: the tier decides instead of the type. */
  readonly halfLifeDaysByTier: Readonly<Record<Tier, number>>;
  /** Tiers whose memories are flagged for re-verification once this many days old. */
  readonly reverifyAfterDaysByTier: Readonly<Partial<Record<Tier, number>>>;
  /** Tiers the maintenance tick never archives, whatever their strength. */
  readonly neverArchivedTiers: readonly Tier[];
  /** A memory weaker than this is archived (unless pinned or of a never-archived tier). */
  readonly archiveBelowStrength: number;
  /** Confidence of a memory that carries none. */
  readonly defaultConfidence: number;
  /** Staleness added when at least one claim of a kind was checked and found missing. */
  readonly missingClaimPenalty: Readonly<Record<ClaimKind, number>>;
  /** Staleness at which the bands start: below `review` keep, below `prune` review, else prune. */
  readonly stalenessBands: { readonly review: number; readonly prune: number };
  /** The hygiene report lists memories created more than this many days ago. */
  readonly oldAfterDays: number;
}

/**
 * Every tunable number of the scores, in one place. The half-lives are folded into the memories
 * projection's rank rows (directory-index.ts): change one with its projectorVersion.
 */
export const SCORING: ScoringTable = deepFreeze({
  halfLifeDaysByType: {
    /** What the user cares about: changes over years. */
    value: 365,
    /** A lesson distilled from several sessions: holds for half a year before it needs renewing. */
    insight: 180,
    /** Who the user is, their role and habits: slow to change. */
    user: 180,
    /** A correction or a preference about how to work: a season, then it should be re-stated. */
    feedback: 90,
    /** Where something lives (a dashboard, a doc, a channel): links move within months. */
    reference: 60,
    /** Current project state (who does what, what is in flight): stale within weeks. */
    project: 14,
    /** Frontmatter that did not parse: nothing says how long it holds, so it fades in a month. */
    unknown: 30,
  },
  halfLifeDaysByTier: {
    /** A preference holds about as long as a user fact. */
    preference: 180,
    /** How to do something: procedures outlive most facts. */
    procedural: 365,
    /** A fact about the project or the world. */
    fact: 180,
    /** What happened in one session: recent episodes matter, old ones fade. */
    episodic: 30,
    /** Scratch state for the task at hand: gone in days. */
    working: 1,
    /** An idea is kept until someone acts on it: it never decays. */
    idea: Number.POSITIVE_INFINITY,
    /** A rule decays like feedback, and is flagged for re-verification rather than archived. */
    rule: 90,
  },
  reverifyAfterDaysByTier: {
    /** A rule unconfirmed for 90 days is shown for re-verification (it is never archived). */
    rule: 90,
  },
  /** Ideas and rules leave only by a person's decision. */
  neverArchivedTiers: ['idea', 'rule'],
  /** Below a tenth of full strength a memory no longer earns a place in the index. */
  archiveBelowStrength: 0.1,
  /**
   * A memory without a confidence was written on purpose (by the user, or by the agent through
   * Claude Code's own memory), not inferred: it starts as sure as anything engram knows.
   * Inferred memories always carry theirs (0.3 provisional, 0.6 for a detected correction).
   */
  defaultConfidence: 1,
  missingClaimPenalty: {
    /** A referenced file is gone. */
    path: 20,
    /** A referenced function or class is not found: the code moved on. */
    symbol: 30,
    /** A referenced branch no longer exists (merged, deleted). */
    branch: 15,
    /** A URL is unreachable; URLs are checked only when the user allows network checks. */
    url: 10,
    /** A package not in the manifests is reported, not scored: DESIGN.md gives it no weight. */
    package: 0,
  },
  /** 0–50 keep, 50–75 review, 75–100 prune; a bound belongs to the band above it. */
  stalenessBands: { review: 50, prune: 75 },
  /** DESIGN.md's hygiene report: memories older than 90 days. */
  oldAfterDays: 90,
});

/** The archive threshold, as a constant for callers that only need that. */
export const ARCHIVE_BELOW_STRENGTH = SCORING.archiveBelowStrength;

/** A date as memory files carry it: an ISO string, a `YYYY-MM-DD` day, or a parsed Date. */
export type MemoryDate = string | Date;

/** What the scores read of a memory (frontmatter names: `last_reinforced`, `metadata.modified`). */
export interface ScoreInput {
  readonly name: string;
  readonly type: MemoryType;
  readonly tier?: Tier | undefined;
  /** 0..1; missing or not a number: `defaultConfidence`. Out of range: clamped. */
  readonly confidence?: number | undefined;
  readonly lastReinforced?: MemoryDate | undefined;
  readonly created?: MemoryDate | undefined;
  readonly modified?: MemoryDate | undefined;
  readonly pinned?: boolean | undefined;
}

/** One verification outcome, as verify-claims reports it (only kind and status are read). */
export interface VerificationOutcome {
  readonly claim: { readonly kind: ClaimKind };
  readonly status: VerificationStatus;
}

export type StalenessBand = 'keep' | 'review' | 'prune';

/**
 * What the maintenance tick does with a memory, in order of precedence: pinned (never touched),
 * archive, reverify (a rule past its re-verification age), then the staleness band.
 */
export type ScoreAction = 'pinned' | 'archive' | 'reverify' | StalenessBand;

export interface MemoryScore {
  readonly halfLifeDays: number;
  /** Days since the memory was last confirmed (see the file comment); undefined when undated. */
  readonly ageDays: number | undefined;
  /** Days since `created`; undefined when it is not set. */
  readonly daysSinceCreated: number | undefined;
  readonly confidence: number;
  /** 0..1 */
  readonly strength: number;
  /** 0..100: decay plus penalties, capped. */
  readonly staleness: number;
  /** The part of staleness that verification added. */
  readonly penalty: number;
  readonly band: StalenessBand;
  readonly archivable: boolean;
  readonly reverify: boolean;
  /** Created more than `oldAfterDays` ago (the hygiene report's "older than 90 days"). */
  readonly old: boolean;
  readonly action: ScoreAction;
}

export interface ScoreOptions {
  /** Outcomes of this memory's claims; none: no penalties. */
  readonly verification?: Iterable<VerificationOutcome> | undefined;
  readonly table?: ScoringTable | undefined;
}

export function halfLifeDays(memory: Pick<ScoreInput, 'type' | 'tier'>, table: ScoringTable = SCORING): number {
  if (memory.tier !== undefined) {
    const byTier = table.halfLifeDaysByTier[memory.tier];
    if (byTier !== undefined) return byTier;
  }
  return table.halfLifeDaysByType[memory.type] ?? table.halfLifeDaysByType.unknown;
}

/** The date age is counted from (see the file comment), or undefined when there is none. */
export function lastConfirmed(memory: Pick<ScoreInput, 'lastReinforced' | 'created' | 'modified'>): Date | undefined {
  const reinforced = parseDate(memory.lastReinforced);
  const created = parseDate(memory.created);
  if (reinforced && created) return reinforced.getTime() >= created.getTime() ? reinforced : created;
  return reinforced ?? created ?? parseDate(memory.modified);
}

/** Whole and fractional days from `from` to `now`, never negative; undefined without both. */
export function daysBetween(from: Date | undefined, now: Date): number | undefined {
  if (from === undefined || Number.isNaN(now.getTime())) return undefined;
  return Math.max(0, (now.getTime() - from.getTime()) / DAY_MS);
}

/** `confidence × 2^(−age / half_life)`; an undated memory keeps its confidence. */
export function strength(memory: ScoreInput, now: Date, table: ScoringTable = SCORING): number {
  const age = daysBetween(lastConfirmed(memory), now);
  return confidenceOf(memory, table) * decay(age ?? 0, halfLifeDays(memory, table));
}

/**
 * Staleness added by verification: each kind's penalty once when at least one claim of that kind
 * was found missing. Once per kind, not per claim: a note that names five files of a deleted
 * directory is one stale fact, not five. Unverifiable claims never count.
 */
export function verificationPenalty(outcomes: Iterable<VerificationOutcome> | undefined, table: ScoringTable = SCORING): number {
  if (outcomes === undefined) return 0;
  const missing = new Set<ClaimKind>();
  for (const outcome of outcomes) if (outcome.status === 'missing') missing.add(outcome.claim.kind);
  let penalty = 0;
  for (const kind of missing) penalty += table.missingClaimPenalty[kind] ?? 0;
  return penalty;
}

/** `100 × (1 − 2^(−age / half_life))` plus the verification penalty, capped at 100. */
export function staleness(memory: ScoreInput, now: Date, options: ScoreOptions = {}): number {
  const table = options.table ?? SCORING;
  const age = daysBetween(lastConfirmed(memory), now);
  const decayed = 100 * (1 - decay(age ?? 0, halfLifeDays(memory, table)));
  return Math.min(100, decayed + verificationPenalty(options.verification, table));
}

export function stalenessBand(value: number, table: ScoringTable = SCORING): StalenessBand {
  if (value >= table.stalenessBands.prune) return 'prune';
  if (value >= table.stalenessBands.review) return 'review';
  return 'keep';
}

/** Strength below the threshold, not pinned, not of a never-archived tier, and dated. */
export function isArchivable(memory: ScoreInput, now: Date, table: ScoringTable = SCORING): boolean {
  if (memory.pinned === true) return false;
  if (memory.tier !== undefined && table.neverArchivedTiers.includes(memory.tier)) return false;
  if (daysBetween(lastConfirmed(memory), now) === undefined) return false;
  return strength(memory, now, table) < table.archiveBelowStrength;
}

/** A memory of a tier with a re-verification age (rules) that has gone unconfirmed that long. */
export function needsReverification(memory: ScoreInput, now: Date, table: ScoringTable = SCORING): boolean {
  if (memory.tier === undefined) return false;
  const after = table.reverifyAfterDaysByTier[memory.tier];
  if (after === undefined) return false;
  const age = daysBetween(lastConfirmed(memory), now);
  return age !== undefined && age >= after;
}

/** Everything the maintenance tick and its dry run need to know about one memory. */
export function scoreMemory(memory: ScoreInput, now: Date, options: ScoreOptions = {}): MemoryScore {
  const table = options.table ?? SCORING;
  const ageDays = daysBetween(lastConfirmed(memory), now);
  const daysSinceCreated = daysBetween(parseDate(memory.created), now);
  const memoryStaleness = staleness(memory, now, options);
  const band = stalenessBand(memoryStaleness, table);
  const archivable = isArchivable(memory, now, table);
  const reverify = needsReverification(memory, now, table);
  const action: ScoreAction = memory.pinned === true ? 'pinned' : archivable ? 'archive' : reverify ? 'reverify' : band;
  return {
    halfLifeDays: halfLifeDays(memory, table),
    ageDays,
    daysSinceCreated,
    confidence: confidenceOf(memory, table),
    strength: strength(memory, now, table),
    staleness: memoryStaleness,
    penalty: verificationPenalty(options.verification, table),
    band,
    archivable,
    reverify,
    old: daysSinceCreated !== undefined && daysSinceCreated > table.oldAfterDays,
    action,
  };
}

/** One row of `engram maintain --dry-run`'s score table. */
export interface ScoreRow {
  readonly name: string;
  /** The type, and the tier when set: `feedback/rule`. */
  readonly type: string;
  /** Rounded to two decimals, as printed. */
  readonly strength: number;
  /** Rounded to a whole number, as printed. */
  readonly staleness: number;
  readonly action: ScoreAction;
}

export function scoreRow(memory: ScoreInput, now: Date, options: ScoreOptions = {}): ScoreRow {
  const score = scoreMemory(memory, now, options);
  return {
    name: memory.name,
    type: memory.tier === undefined ? memory.type : `${memory.type}/${memory.tier}`,
    strength: Math.round(score.strength * 100) / 100,
    staleness: Math.round(score.staleness),
    action: score.action,
  };
}

const ACTION_ORDER: Record<ScoreAction, number> = { archive: 0, prune: 1, reverify: 2, review: 3, keep: 4, pinned: 5 };

/** What needs attention first: by action, then weakest first, then by name. */
export function compareScoreRows(a: ScoreRow, b: ScoreRow): number {
  return ACTION_ORDER[a.action] - ACTION_ORDER[b.action] || a.strength - b.strength || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The score table as `--dry-run` prints it: a header, then one aligned line per row, as given. */
export function renderScoreTable(rows: readonly ScoreRow[]): string {
  const cells = [
    ['name', 'type', 'strength', 'staleness', 'action'],
    ...rows.map((row) => [row.name, row.type, row.strength.toFixed(2), String(row.staleness), row.action]),
  ];
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((line) => line[column]!.length)));
  const numeric = [false, false, true, true, false];
  return cells
    .map((line) =>
      line
        .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

function decay(ageDays: number, halfLife: number): number {
  if (!(halfLife > 0)) return 1;
  return 2 ** (-ageDays / halfLife);
}

/** A memory's confidence as the scores read it: the default when missing, clamped to 0..1. */
export function confidenceOf(memory: Pick<ScoreInput, 'confidence'>, table: ScoringTable = SCORING): number {
  const value = memory.confidence;
  if (typeof value !== 'number' || Number.isNaN(value)) return table.defaultConfidence;
  return Math.min(1, Math.max(0, value));
}

function parseDate(value: MemoryDate | undefined): Date | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  if (isCanonicalUtc(value)) {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? undefined : at;
  }
  const match = ISO_DATE.exec(value.trim());
  if (!match) return undefined;
  // Without a zone, JavaScript reads a date-time as local time: a replay in another time zone
  // would age memories differently. Such times are read as UTC, like a bare day is.
  const [, day, time = '00:00:00', zone = 'Z'] = match;
  if (!isCalendarDay(day!)) return undefined;
  const at = new Date(`${day}T${time}${zone.toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** Date rolls 2026-02-30 over into March; a day that does not exist is no date. */
function isCalendarDay(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && date >= 1 && date <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` of a day that exists (year 100 on): what engram writes, and what the
 * general path reads as `new Date(value)` too. Checked by character: MEMORY.md's render scores
 * up to 200 memories per proposal, and the general path's regex and splits were a tenth of it.
 */
function isCanonicalUtc(value: string): boolean {
  if (value.length !== 24) return false;
  for (let i = 0; i < 24; i++) {
    const c = value.charCodeAt(i);
    const want = CANONICAL_UTC.charCodeAt(i);
    if (want === 0x64 ? c < 0x30 || c > 0x39 : c !== want) return false;
  }
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const date = digits(value, 8, 10);
  if (year < 100 || month < 1 || month > 12 || date < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return date <= (month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}

/** The shape isCanonicalUtc checks: `d` a digit, anything else itself. */
const CANONICAL_UTC = 'dddd-dd-ddTdd:dd:dd.dddZ';

function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 0x30;
  return n;
}

/** ISO 8601 only: other formats Date parses (`March 3, 2025`) are read as local time or not at all. */
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) deepFreeze(inner);
  return Object.freeze(value);
}
