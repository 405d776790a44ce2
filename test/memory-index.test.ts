import { describe, expect, it } from 'vitest';
import { mergeIndexText, type IndexEntry } from '../src/ownership/memory-index-lines.js';

/** The stats writer's merge; `owned`: the lines it wrote there before. */
const mergeIndex = (existing: string | undefined, entries: IndexEntry[], owned: string[] = []) =>
  mergeIndexText(existing === undefined ? undefined : Buffer.from(existing), owned, { kind: 'entries', entries }).bytes.toString();

const entries = [
  { file: 'auto-stats.md', description: 'stats' },
  { file: 'auto-errors.md', description: 'errors' },
];

describe('mergeIndex', () => {
  it('creates an index with engram lines when there is none', () => {
    expect(mergeIndex(undefined, entries)).toBe('- [auto-stats.md](auto-stats.md) — stats\n- [auto-errors.md](auto-errors.md) — errors\n');
  });

  it('keeps every hand-written line byte for byte and appends what is missing', () => {
    const mine = '# My memory\n\n- [prefs.md](prefs.md) — how I like my code\nSome *free* text, no link.\n';
    const merged = mergeIndex(mine, entries);
    expect(merged.startsWith(mine)).toBe(true);
    expect(merged.slice(mine.length)).toBe('- [auto-stats.md](auto-stats.md) — stats\n- [auto-errors.md](auto-errors.md) — errors\n');
  });

  it('rewrites its own line in place, wherever the user moved it', () => {
    const moved = 'top\n- [auto-stats.md](auto-stats.md) — old words\nbottom\n';
    expect(mergeIndex(moved, entries, ['- [auto-stats.md](auto-stats.md) — old words'])).toBe('top\n- [auto-stats.md](auto-stats.md) — stats\nbottom\n- [auto-errors.md](auto-errors.md) — errors\n');
  });

  it('is idempotent', () => {
    const once = mergeIndex('x\n', entries);
    expect(mergeIndex(once, entries, entries.map((e) => `- [${e.file}](${e.file}) — ${e.description}`))).toBe(once);
  });

  it('adds a final newline to a file without one and keeps blank lines', () => {
    expect(mergeIndex('a\n\nb', [entries[0]!])).toBe('a\n\nb\n- [auto-stats.md](auto-stats.md) — stats\n');
  });
});
