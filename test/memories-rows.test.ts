import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/events/catalog.js';
import { bestMatch, memoryTokens } from '../src/memories/similarity.js';
import { MEMORY_TYPES } from '../src/events/memory-kinds.js';
import { projectMemoryDir } from '../src/paths.js';
import { findSameMemory, inForce } from '../src/projections/memories/match-memory.js';
import { memoriesProjector } from '../src/projections/memories/memories.js';
import { dirKey, entryKey, kindOf, postingKey, rowAt, tokenKey, typedRow, type MemoriesRow } from '../src/projections/memories/memories-rows.js';
import { POSTING_CHUNK, postingIds } from '../src/projections/memories/token-postings.js';
import type { DirEntry } from '../src/projections/memories/memory-row.js';
import { fold, type RowReader } from '../src/projections/projector.js';
import { seededRandom } from '../bench/seeded-random.js';

const PROJECT = '/home/dev/src/app';
const DIR = projectMemoryDir(PROJECT);

/** Proposals, edits, archives, supersessions and restores over a small vocabulary, so near-duplicates abound. */
function history(seed: number, count: number): DomainEvent[] {
  const random = seededRandom(seed);
  const words = ['deploy', 'tests', 'pnpm', 'branch', 'release', 'cache', 'docker', 'lint', 'types', 'schema', 'migration', 'never', 'always', 'main', 'config', 'logs'];
  const phrase = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!).join(' ');
  const types = MEMORY_TYPES.filter((type) => type !== 'unknown').slice(0, 3);
  const events: DomainEvent[] = [];
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const push = (type: string, data: unknown) => {
    clock += 60_000;
    events.push({ seq: events.length + 1, id: `e${events.length}`, type, schemaVersion: 1, ts: new Date(clock).toISOString(), session: `s${events.length % 7}`, project: PROJECT, data } as DomainEvent);
  };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    const some = ids.length > 0 ? ids[Math.floor(random() * ids.length)]! : undefined;
    if (some && roll < 0.1) push('MemoryArchived', { memoryId: some, reason: 'weak' });
    else if (some && roll < 0.15) push('MemoryRestored', { memoryId: some });
    else if (some && roll < 0.2) push('MemorySuperseded', { memoryId: some, by: ids[0]! });
    else if (some && roll < 0.3) {
      push('MemoryEdited', { memoryId: some, by: 'hand', name: phrase(3), description: phrase(5), type: types[Math.floor(random() * types.length)]!, body: 'edited\n' });
    } else {
      const id = `m${i}`;
      ids.push(id);
      // Half import (never matched), half the agent's (matched: a near-duplicate reinforces instead).
      push('MemoryProposed', {
        memoryId: id, origin: random() < 0.5 ? 'import' : 'agent', scope: 'project', name: phrase(2 + Math.floor(random() * 3)), description: phrase(3 + Math.floor(random() * 5)),
        type: types[Math.floor(random() * types.length)]!, body: 'body\n', status: 'active', confidence: 0.5,
      });
    }
  }
  return events;
}

const prepared = new WeakMap<readonly DirEntry[], Array<{ id: string; type: string; tokens: string[] }>>();

/** The check as it was before the token index: every entry of the directory, scanned. */
function scanned(entries: readonly DirEntry[], type: string, said: { name: string; description: string }): string | undefined {
  const items = prepared.get(entries) ?? entries.filter(inForce).map((entry) => ({ id: entry.id, type: entry.type as string, tokens: memoryTokens(entry) }));
  prepared.set(entries, items);
  return bestMatch({ type, tokens: memoryTokens(said) }, items)?.item.id;
}

describe('the memories projection’s rows', () => {
  it('the token index finds the same near-duplicate as scanning the whole directory, on seeded random histories', () => {
    let compared = 0;
    let found = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const { rows } = fold(memoriesProjector, history(seed, 400));
      const reader: RowReader<unknown> = { get: (key) => rows.get(key) };
      const entries = [...rows].flatMap(([key, row]) => {
        const typed = typedRow(key, row);
        return typed?.kind === 'entry' && typed.row ? [typed.row] : [];
      });
      expect(entries.length).toBeGreaterThan(50);
      const random = seededRandom(100 + seed);
      const words = ['deploy', 'tests', 'pnpm', 'branch', 'release', 'cache', 'docker', 'lint', 'types', 'schema', 'migration', 'never', 'always', 'main', 'config', 'logs', 'other'];
      for (let probe = 0; probe < 300; probe++) {
        const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!).join(' ');
        const said = { name: pick(2 + (probe % 3)), description: pick(3 + (probe % 5)) };
        for (const type of ['user', 'feedback', 'project'] as const) {
          const expected = scanned(entries, type, said);
          expect(findSameMemory(reader, DIR, type, said)).toBe(expected);
          compared++;
          if (expected !== undefined) found++;
        }
      }
    }
    // The comparison means something only if both answers occur often.
    expect(found).toBeGreaterThan(compared / 10);
    expect(found).toBeLessThan(compared);
  });

  it('indexes exactly the entries in force, under their type and tokens, and holds no directory-wide list of memories', () => {
    const { rows } = fold(memoriesProjector, history(9, 1500));
    const reader: RowReader<unknown> = { get: (key) => rows.get(key) };
    const expected = new Map<string, string[]>();
    for (const [key, row] of rows) {
      const typed = typedRow(key, row);
      expect(typed, key).toBeDefined();
      if (typed?.kind === 'entry' && typed.row) {
        expect(typed.row.tokens).toEqual(memoryTokens(typed.row));
        expect(rowAt(reader, entryKey(DIR, typed.row.id))).toBe(typed.row);
        if (!inForce(typed.row)) continue;
        for (const token of typed.row.tokens) {
          const k = tokenKey(DIR, typed.row.type, token);
          expected.set(k, [...(expected.get(k) ?? []), typed.row.id].sort());
        }
      }
      if (typed?.kind === 'dir') expect(Object.keys(typed.row ?? {}).sort()).toEqual(expect.arrayContaining(['asOf', 'dir', 'project']));
    }
    // Each token's ids, read chunk by chunk under its head: the head counts them, no chunk is over full or empty.
    const indexed = new Map([...rows].filter(([key]) => kindOf(key) === 'token').map(([key, head]) => {
      const [, type, token] = key.slice('token:'.length).split('\n') as [string, string, string];
      const ids = postingIds(reader, DIR, type, token);
      expect((head as { count: number }).count).toBe(ids.length);
      return [key, ids.sort()];
    }));
    for (const [key, chunk] of rows) {
      if (kindOf(key) !== 'posting') continue;
      expect((chunk as string[]).length).toBeGreaterThan(0);
      expect((chunk as string[]).length).toBeLessThanOrEqual(POSTING_CHUNK);
    }
    expect(new Map([...indexed].sort())).toEqual(new Map([...expected].sort()));
    // Common tokens took more than one chunk, and ids left chunks behind them.
    expect([...rows].some(([key, head]) => kindOf(key) === 'token' && (head as { last: number }).last > 0)).toBe(true);
    // The directory counts the rows on each shelf of its index: what MEMORY.md opens.
    const shelves: Record<string, number> = {};
    for (const key of rows.keys()) {
      const kind = kindOf(key);
      if (kind === 'rank') shelves[key.split('\n')[1]!] = (shelves[key.split('\n')[1]!] ?? 0) + 1;
      if (kind === 'arch' || kind === 'inline') shelves[kind] = (shelves[kind] ?? 0) + 1;
    }
    expect(Object.keys(shelves).length).toBeGreaterThan(1);
    expect(rowAt(reader, dirKey(DIR))).toMatchObject({ shelves });
    expect((rowAt(reader, dirKey(DIR)) as { shelves: object }).shelves).toEqual(shelves);
        // Each entry in force knows the chunk that holds it under each of its tokens.
    for (const [key, row] of rows) {
      const typed = typedRow(key, row);
      if (typed?.kind !== 'entry' || !typed.row || !inForce(typed.row)) continue;
      const entry = typed.row;
      entry.tokens.forEach((token, i) => expect(rowAt(reader, postingKey(DIR, entry.type, token, entry.chunks![i]!))).toContain(entry.id));
    }
  });

  it('the near-duplicate check measures only the memories named twice among the rarest lists, with 3,000 memories in the directory', () => {
    // Names and descriptions of a Zipf-like vocabulary, as the bench's directory: many tokens shared, few near-duplicates.
    const random = seededRandom(21);
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
    const phrase = (n: number) => Array.from({ length: n }, () => words[Math.floor(words.length * random() ** 3)]!).join(' ');
    const said = () => ({ name: phrase(4), description: phrase(10) });
    let clock = Date.parse('2026-01-01T00:00:00.000Z');
    const events = Array.from({ length: 3000 }, (_, i) => {
      clock += 1000;
      return { seq: i + 1, id: `e${i}`, type: 'MemoryProposed', schemaVersion: 1, ts: new Date(clock).toISOString(), session: 's', project: PROJECT,
        data: { memoryId: `m${i}`, origin: 'import', scope: 'project', ...said(), type: 'project', body: 'body\n', status: 'active', confidence: 0.5 } } as DomainEvent;
    });
    const { rows } = fold(memoriesProjector, events);
    const entries = [...rows].flatMap(([key, row]) => {
      const typed = typedRow(key, row);
      return typed?.kind === 'entry' && typed.row ? [typed.row] : [];
    });
    let read = 0;
    const reader: RowReader<unknown> = {
      get: (key) => {
        if (kindOf(key) === 'entry') read++;
        return rows.get(key);
      },
    };
    const probes = 100;
    let found = 0;
    for (let probe = 0; probe < probes; probe++) {
      // Every fifth probe says an existing memory again with a word changed: a near-duplicate to find.
      const again = probe % 5 === 0 ? entries[probe * 7]! : undefined;
      const asked = again ? { name: again.name, description: again.description.replace(/^\S+/, 'wzzzx') } : said();
      const expected = scanned(entries, 'project', asked);
      expect(findSameMemory(reader, DIR, 'project', asked)).toBe(expected);
      if (expected !== undefined) found++;
    }
    expect(found).toBeGreaterThanOrEqual(probes / 10);
    // The rarest lists alone name dozens of memories per probe here; counted over one list more,
    // about one per probe is left to read.
    expect(read).toBeLessThan(probes * 4);
  });

  it('a proposal touches its own rows only: the same number of rows with 10 or 2,000 memories in its directory', () => {
    const touched = (count: number) => {
      const events = history(11, count).filter((event) => event.type === 'MemoryProposed');
      const { rows } = fold(memoriesProjector, events);
      const reader: RowReader<MemoriesRow> = { get: (key) => rows.get(key) };
      const next = { ...events[0]!, id: 'new', seq: 99_999, ts: '2027-01-01T00:00:00.000Z', data: { ...(events[0]!.data as object), memoryId: 'fresh', origin: 'import', name: 'zzz unique words', description: 'nothing like the others qqq' } } as DomainEvent;
      return memoriesProjector.evolve(reader, next).map((change) => kindOf(change.key)).sort();
    };
    expect(touched(2000)).toEqual(touched(10));
  });
});
