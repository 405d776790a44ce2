import { describe, expect, it } from 'vitest';
import { MEMORY_TYPES, TIERS, type MemoryType, type Tier } from '../src/events/memory-kinds.js';
import {
  ARCHIVE_BELOW_STRENGTH,
  compareScoreRows,
  halfLifeDays,
  isArchivable,
  lastConfirmed,
  needsReverification,
  renderScoreTable,
  SCORING,
  scoreMemory,
  scoreRow,
  staleness,
  stalenessBand,
  strength,
  verificationPenalty,
  type ScoreInput,
  type ScoringTable,
  type VerificationOutcome,
} from '../src/memories/scores.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const daysAgo = (days: number): string => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const memory = (fields: Partial<ScoreInput> = {}): ScoreInput => ({ name: 'm', type: 'feedback', ...fields });
const missing = (...kinds: VerificationOutcome['claim']['kind'][]): VerificationOutcome[] => kinds.map((kind) => ({ claim: { kind }, status: 'missing' }));

describe('half-lives', () => {
  it.each<[MemoryType, number]>([
    ['value', 365],
    ['insight', 180],
    ['user', 180],
    ['feedback', 90],
    ['reference', 60],
    ['project', 14],
    ['unknown', 30],
  ])('type %s: %i days', (type, days) => {
    expect(halfLifeDays({ type })).toBe(days);
  });

  it.each<[Tier, number]>([
    ['preference', 180],
    ['procedural', 365],
    ['fact', 180],
    ['episodic', 30],
    ['working', 1],
    ['idea', Number.POSITIVE_INFINITY],
    ['rule', 90],
  ])('tier %s decides over the type: %s days', (tier, days) => {
    expect(halfLifeDays({ type: 'project', tier })).toBe(days);
  });

  it('the table covers every type and tier and cannot be changed in place', () => {
    expect(Object.keys(SCORING.halfLifeDaysByType).sort()).toEqual([...MEMORY_TYPES].sort());
    expect(Object.keys(SCORING.halfLifeDaysByTier).sort()).toEqual([...TIERS].sort());
    expect(Object.isFrozen(SCORING)).toBe(true);
    expect(Object.isFrozen(SCORING.halfLifeDaysByType)).toBe(true);
    expect(ARCHIVE_BELOW_STRENGTH).toBe(0.1);
  });
});

describe('strength = confidence × 2^(−days since last_reinforced / half_life)', () => {
  it.each<[string, Partial<ScoreInput>, number]>([
    ['fresh', { confidence: 0.8, lastReinforced: daysAgo(0) }, 0.8],
    ['one half-life', { confidence: 0.8, lastReinforced: daysAgo(90) }, 0.4],
    ['two half-lives', { confidence: 1, lastReinforced: daysAgo(180) }, 0.25],
    ['project type, 14 days', { type: 'project', confidence: 0.6, lastReinforced: daysAgo(14) }, 0.3],
    ['value type, a year', { type: 'value', confidence: 1, lastReinforced: daysAgo(365) }, 0.5],
    ['working tier, 3 days', { tier: 'working', confidence: 1, lastReinforced: daysAgo(3) }, 0.125],
    ['idea tier never decays', { tier: 'idea', confidence: 0.7, lastReinforced: daysAgo(5000) }, 0.7],
    ['no confidence: 1', { lastReinforced: daysAgo(90) }, 0.5],
    ['confidence above 1 is clamped', { confidence: 3, lastReinforced: daysAgo(0) }, 1],
    ['confidence below 0 is clamped', { confidence: -1, lastReinforced: daysAgo(0) }, 0],
    ['NaN confidence: the default', { confidence: Number.NaN, lastReinforced: daysAgo(0) }, 1],
    ['never reinforced: from created', { confidence: 1, created: daysAgo(90) }, 0.5],
    ['the later of created and last_reinforced', { confidence: 1, created: daysAgo(90), lastReinforced: daysAgo(270) }, 0.5],
    ['modified only when nothing else is set', { confidence: 1, modified: daysAgo(90) }, 0.5],
    ['modified ignored beside last_reinforced', { confidence: 1, lastReinforced: daysAgo(90), modified: daysAgo(0) }, 0.5],
    ['a date in the future is age 0', { confidence: 0.9, lastReinforced: daysAgo(-30) }, 0.9],
    ['undated keeps its confidence', { confidence: 0.4 }, 0.4],
    ['an unparseable date is no date', { confidence: 0.4, lastReinforced: 'last tuesday' }, 0.4],
  ])('%s', (_, fields, expected) => {
    expect(strength(memory(fields), NOW)).toBeCloseTo(expected, 10);
  });

  it('ages as the injected now moves, and only then', () => {
    const m = memory({ confidence: 1, lastReinforced: '2026-01-01T00:00:00Z' });
    const at = (iso: string) => strength(m, new Date(iso));
    expect(at('2026-01-01T00:00:00Z')).toBe(1);
    expect(at('2026-04-01T00:00:00Z')).toBeCloseTo(0.5, 10);
    expect(at('2026-06-30T00:00:00Z')).toBeCloseTo(0.25, 10);
    expect(at('2026-04-01T00:00:00Z')).toBe(at('2026-04-01T00:00:00Z'));
    // Strictly decreasing day by day.
    let previous = 2;
    for (let day = 0; day < 400; day += 7) {
      const value = strength(m, new Date(Date.UTC(2026, 0, 1 + day)));
      expect(value).toBeLessThan(previous);
      previous = value;
    }
  });

  it.each<[string, string]>([
    ['a bare day is UTC midnight', '2026-03-03'],
    ['a date-time without a zone is UTC', '2026-03-03T00:00:00'],
    ['with a space', '2026-03-03 00:00'],
    ['an offset', '2026-03-03T02:00:00+02:00'],
    ['an offset without a colon', '2026-03-03T02:00+0200'],
    ['lower-case z', '2026-03-03t00:00:00z'],
  ])('dates: %s', (_, value) => {
    expect(lastConfirmed({ created: value })?.toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });

  it.each(['March 3, 2026', '03/03/2026', '2026-13-01', '2026-02-30', '2026-04-31T10:00:00Z', '2026-03-03x', '', '   ',
    // engram's own form (read by a shorter path) of a day that does not exist, or an hour that does not.
    '2026-02-30T00:00:00.000Z', '2023-02-29T10:00:00.000Z', '1900-02-29T10:00:00.000Z', '2026-04-31T10:00:00.000Z', '2026-00-10T10:00:00.000Z', '2026-03-03T25:00:00.000Z'])('a date that is not ISO 8601 is no date: %j', (value) => {
    expect(lastConfirmed({ created: value })).toBeUndefined();
  });

  it.each(['2024-02-29T10:00:00.000Z', '2000-02-29T23:59:59.999Z', '2026-12-31T00:00:00.000Z', '0100-03-01T00:00:00.000Z'])('engram\'s own form of a day that exists is that instant: %s', (value) => {
    expect(lastConfirmed({ created: value })?.toISOString()).toBe(value);
  });

  it('takes Date objects as a YAML parser may give them, and ignores invalid ones', () => {
    expect(lastConfirmed({ created: new Date('2026-03-03T00:00:00Z') })?.toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(lastConfirmed({ created: new Date(Number.NaN), modified: '2026-01-01' })?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('staleness = 100 × (1 − 2^(−age / half_life)) + penalties, capped at 100', () => {
  it.each<[string, Partial<ScoreInput>, VerificationOutcome[], number]>([
    ['fresh, nothing missing', { lastReinforced: daysAgo(0) }, [], 0],
    ['one half-life', { lastReinforced: daysAgo(90) }, [], 50],
    ['two half-lives', { lastReinforced: daysAgo(180) }, [], 75],
    ['confidence does not enter staleness', { confidence: 0.1, lastReinforced: daysAgo(90) }, [], 50],
    ['a file missing: +20', { lastReinforced: daysAgo(0) }, missing('path'), 20],
    ['a function missing: +30', { lastReinforced: daysAgo(0) }, missing('symbol'), 30],
    ['a branch missing: +15', { lastReinforced: daysAgo(0) }, missing('branch'), 15],
    ['a URL unreachable: +10', { lastReinforced: daysAgo(0) }, missing('url'), 10],
    ['a package missing: reported, not scored', { lastReinforced: daysAgo(0) }, missing('package'), 0],
    ['each kind counts once', { lastReinforced: daysAgo(0) }, missing('path', 'path', 'path'), 20],
    ['kinds add up', { lastReinforced: daysAgo(0) }, missing('path', 'symbol', 'branch', 'url'), 75],
    ['capped at 100', { lastReinforced: daysAgo(180) }, missing('path', 'symbol'), 100],
    ['an idea decays not, penalties still count', { tier: 'idea', lastReinforced: daysAgo(9999) }, missing('symbol'), 30],
    ['undated: penalties only', {}, missing('path'), 20],
    [
      'ok and unverifiable never count',
      { lastReinforced: daysAgo(0) },
      [
        { claim: { kind: 'path' }, status: 'ok' },
        { claim: { kind: 'symbol' }, status: 'unverifiable' },
      ],
      0,
    ],
  ])('%s', (_, fields, outcomes, expected) => {
    expect(staleness(memory(fields), NOW, { verification: outcomes })).toBeCloseTo(expected, 10);
  });

  it.each<[number, string]>([
    [0, 'keep'],
    [49.99, 'keep'],
    [50, 'review'],
    [74.99, 'review'],
    [75, 'prune'],
    [100, 'prune'],
  ])('band of %d: %s', (value, band) => {
    expect(stalenessBand(value)).toBe(band);
  });

  it('verificationPenalty reads any iterable and nothing when there is none', () => {
    expect(verificationPenalty(undefined)).toBe(0);
    expect(verificationPenalty(new Set(missing('branch', 'url')))).toBe(25);
  });
});

describe('archiving: strength < 0.10, not pinned, not idea/rule', () => {
  // feedback, confidence 1: 2^(−d/90) < 0.1 once d > 90 × log2(10) ≈ 298.97 days.
  it.each<[string, Partial<ScoreInput>, boolean]>([
    ['just above the threshold', { confidence: 1, lastReinforced: daysAgo(298) }, false],
    ['just below', { confidence: 1, lastReinforced: daysAgo(300) }, true],
    ['pinned', { confidence: 1, lastReinforced: daysAgo(3000), pinned: true }, false],
    ['idea', { tier: 'idea', confidence: 0.05, lastReinforced: daysAgo(3000) }, false],
    ['rule', { tier: 'rule', confidence: 1, lastReinforced: daysAgo(3000) }, false],
    ['a weak provisional memory', { confidence: 0.3, lastReinforced: daysAgo(143) }, true],
    ['low confidence alone, today', { confidence: 0.05, lastReinforced: daysAgo(0) }, true],
    ['undated, however weak', { confidence: 0.05 }, false],
    ['working tier after a week', { tier: 'working', confidence: 1, created: daysAgo(4) }, true],
  ])('%s → %s', (_, fields, expected) => {
    expect(isArchivable(memory(fields), NOW)).toBe(expected);
  });
});

describe('re-verification of rules', () => {
  it.each<[string, Partial<ScoreInput>, boolean]>([
    ['a rule at 89 days', { tier: 'rule', lastReinforced: daysAgo(89) }, false],
    ['a rule at 90 days', { tier: 'rule', lastReinforced: daysAgo(90) }, true],
    ['a rule reinforced since', { tier: 'rule', created: daysAgo(400), lastReinforced: daysAgo(10) }, false],
    ['an undated rule', { tier: 'rule' }, false],
    ['feedback is never flagged', { lastReinforced: daysAgo(900) }, false],
  ])('%s → %s', (_, fields, expected) => {
    expect(needsReverification(memory(fields), NOW)).toBe(expected);
  });
});

describe('scoreMemory and the dry-run table', () => {
  it.each<[string, Partial<ScoreInput>, VerificationOutcome[], string]>([
    ['pinned beats everything', { pinned: true, confidence: 0.01, lastReinforced: daysAgo(999) }, missing('path'), 'pinned'],
    ['archive', { confidence: 0.3, lastReinforced: daysAgo(200) }, [], 'archive'],
    ['a rule is re-verified, not archived', { tier: 'rule', confidence: 0.3, lastReinforced: daysAgo(200) }, [], 'reverify'],
    ['prune by staleness', { confidence: 1, lastReinforced: daysAgo(180) }, [], 'prune'],
    ['review because a function is gone', { confidence: 1, lastReinforced: daysAgo(60) }, missing('symbol'), 'review'],
    ['keep', { confidence: 1, lastReinforced: daysAgo(10) }, [], 'keep'],
    ['an undated memory is kept', { confidence: 0.05 }, [], 'keep'],
  ])('action: %s', (_, fields, outcomes, action) => {
    expect(scoreMemory(memory(fields), NOW, { verification: outcomes }).action).toBe(action);
  });

  it('reports ages, and old memories by their creation date', () => {
    const score = scoreMemory(memory({ created: daysAgo(120), lastReinforced: daysAgo(30) }), NOW);
    expect(score.ageDays).toBeCloseTo(30, 10);
    expect(score.daysSinceCreated).toBeCloseTo(120, 10);
    expect(score.old).toBe(true);
    expect(scoreMemory(memory({ created: daysAgo(90) }), NOW).old).toBe(false);
    const undated = scoreMemory(memory(), NOW);
    expect(undated.ageDays).toBeUndefined();
    expect(undated.daysSinceCreated).toBeUndefined();
    expect(undated.old).toBe(false);
  });

  it('rows carry name, type (with tier), rounded strength and staleness, and action', () => {
    const row = scoreRow({ name: 'prefer pnpm', type: 'feedback', tier: 'rule', confidence: 0.9, lastReinforced: daysAgo(45) }, NOW, {
      verification: missing('path'),
    });
    // 0.9 × 2^(−0.5) = 0.636…; 100 × (1 − 2^(−0.5)) + 20 = 49.29…
    expect(row).toEqual({ name: 'prefer pnpm', type: 'feedback/rule', strength: 0.64, staleness: 49, action: 'keep' });
  });

  it('a tuned table changes the scores without touching the defaults', () => {
    const table: ScoringTable = { ...SCORING, halfLifeDaysByType: { ...SCORING.halfLifeDaysByType, feedback: 10 } };
    const m = memory({ confidence: 1, lastReinforced: daysAgo(10) });
    expect(strength(m, NOW, table)).toBeCloseTo(0.5, 10);
    expect(staleness(m, NOW, { table })).toBeCloseTo(50, 10);
    expect(strength(m, NOW)).toBeCloseTo(2 ** (-10 / 90), 10);
  });

  it('sorts what needs attention first and renders an aligned table', () => {
    const rows = [
      scoreRow({ name: 'keep me', type: 'value', confidence: 1, lastReinforced: daysAgo(1) }, NOW),
      scoreRow({ name: 'old project note', type: 'project', confidence: 0.6, lastReinforced: daysAgo(100) }, NOW),
      scoreRow({ name: 'stale feedback', type: 'feedback', confidence: 1, lastReinforced: daysAgo(200) }, NOW),
    ].sort(compareScoreRows);
    expect(rows.map((row) => row.action)).toEqual(['archive', 'prune', 'keep']);
    expect(renderScoreTable(rows)).toBe(
      [
        'name              type      strength  staleness  action',
        'old project note  project       0.00         99  archive',
        'stale feedback    feedback      0.21         79  prune',
        'keep me           value         1.00          0  keep',
        '',
      ].join('\n'),
    );
  });
});
