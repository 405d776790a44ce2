import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INDEX_BYTE_LIMIT, INDEX_LINE_LIMIT, mergeIndexText, type IndexEntry, type MemoryIndex } from '../src/ownership/memory-index-lines.js';

/** The merge as a sink does it, keeping each writer's lines between merges; `owned` seeds the memories' lines. */
function writers(owned: { memories?: string[]; stats?: string[] } = {}) {
  const lines: { memories?: string[]; stats?: string[] } = { memories: owned.memories ?? [], stats: owned.stats ?? [] };
  return {
    memories(existing: string | undefined, index: MemoryIndex): string {
      // As the memories sink does (indexBefore: ['stats']): its part goes before the stats' lines.
      const merged = mergeIndexText(existing === undefined ? undefined : Buffer.from(existing), lines.memories, { kind: 'memories', index }, lines.stats);
      lines.memories = merged.owned;
      return merged.bytes.toString();
    },
    stats(existing: string | undefined, entries: IndexEntry[]): string {
      const merged = mergeIndexText(existing === undefined ? undefined : Buffer.from(existing), lines.stats, { kind: 'entries', entries });
      lines.stats = merged.owned;
      return merged.bytes.toString();
    },
  };
}
const mergeMemoryIndex = (existing: string | undefined, index: MemoryIndex) => writers().memories(existing, index);

const entry = (file: string, description = `about ${file}`) => ({ file, description });
const index = (shown: string[], archived: string[] = []): MemoryIndex => ({
  shown: shown.map((file) => entry(file)),
  archived: archived.map((file) => ({ file: `_archive/${file}`, name: file.replace(/\.md$/, ''), note: 'archived 2026-11-02: decayed' })),
});

describe('MEMORY.md, as the memories projection writes it', () => {
  it('orders its entries as given, keeps every other line where it stands, byte for byte', () => {
    const mine = '# My notes\n\nSome *free* text, no link.  \n- [old.md](old.md) — stale words\n- [prefs.md](prefs.md) — mine, by hand\n';
    // engram wrote the old.md line before; prefs.md's is the person's.
    const merged = writers({ memories: ['- [old.md](old.md) — stale words'] }).memories(mine, index(['b.md', 'old.md', 'a.md']));
    expect(merged).toBe(
      '# My notes\n\nSome *free* text, no link.  \n- [b.md](b.md) — about b.md\n- [old.md](old.md) — about old.md\n- [a.md](a.md) — about a.md\n- [prefs.md](prefs.md) — mine, by hand\n',
    );
  });

  it('takes out lines of provisional or superseded memories and points to archived ones', () => {
    const engram = writers();
    const before = engram.memories(undefined, index(['a.md', 'b.md', 'c.md']));
    // c.md left the index (provisional or superseded): its line goes.
    const after = engram.memories(before, index(['a.md'], ['b.md']));
    expect(after).toBe('- [a.md](a.md) — about a.md\n\n## Archive Index\n- [b](_archive/b.md) — archived 2026-11-02: decayed\n');
    // The stats projection adds its lines before the archive section.
    expect(engram.stats(after, [entry('auto-stats.md', 'stats')])).toBe(
      '- [a.md](a.md) — about a.md\n- [auto-stats.md](auto-stats.md) — stats\n\n## Archive Index\n- [b](_archive/b.md) — archived 2026-11-02: decayed\n',
    );
  });

  it('never holds more than Claude Code loads, and leaves hand-written lines even then', () => {
    const hand = Array.from({ length: 30 }, (_, i) => `hand line ${i}`).join('\n');
    const many = Array.from({ length: 400 }, (_, i) => `m${String(i).padStart(3, '0')}.md`);
    const merged = mergeMemoryIndex(`${hand}\n`, index(many, ['gone.md']));
    const lines = merged.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(INDEX_LINE_LIMIT);
    expect(lines.slice(0, 30).join('\n')).toBe(hand);
    // The best entries stayed; the archive pointer too.
    expect(lines[30]).toBe('- [m000.md](m000.md) — about m000.md');
    expect(merged).toContain('## Archive Index\n- [gone](_archive/gone.md)');
    const long = index(many.slice(0, 150).map((file) => file), []);
    const wide = mergeMemoryIndex(undefined, { ...long, shown: long.shown.map((e) => ({ ...e, description: 'x'.repeat(400) })) });
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(INDEX_BYTE_LIMIT);
  });

  it('keeps CRLF line endings and a hand line inside the archive section', () => {
    const crlf = 'top\r\n- [a.md](a.md) — x\r\n\r\n## Archive Index\r\nkept by hand\r\n';
    expect(writers({ memories: ['- [a.md](a.md) — x'] }).memories(crlf, index(['a.md'], ['b.md']))).toBe(
      'top\r\n- [a.md](a.md) — about a.md\r\n\r\n## Archive Index\r\nkept by hand\r\n- [b](_archive/b.md) — archived 2026-11-02: decayed\r\n',
    );
  });

  it('is idempotent, and never loses a line it does not manage', () => {
    const line = fc.oneof(
      fc.constantFrom('', '# Heading', '## Archive Index', '## Other', 'plain text', '- [hand.md](hand.md) — by hand', '- [a.md](a.md) — old'),
      fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, ' ')),
    );
    const files = fc.subarray(['a.md', 'b.md', 'c.md', 'd.md', 'e.md']);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), files, files, (existing, shown, archived) => {
        const idx = index(shown, archived.filter((f) => !shown.includes(f)));
        const text = existing.length > 0 ? `${existing.join('\n')}\n` : '';
        const engram = writers();
        const once = engram.memories(text, idx);
        expect(engram.memories(once, idx)).toBe(once);
        // Nobody's line is lost: engram wrote none of these.
        const out = once.split('\n');
        for (const l of existing) expect(out).toContain(l);
      }),
      { numRuns: 300 },
    );
  });

  it('owns only the lines it wrote: a person\'s line that links an engram file stays, word for word, beside engram\'s own', () => {
    const engram = writers();
    const first = engram.memories(undefined, index(['use-pnpm.md']));
    const person = `${first}- IMPORTANT: re-read [use-pnpm.md](use-pnpm.md) before installs\n`;
    const withStats = engram.stats(person, [entry('auto-stats.md', '5 prompts')]);
    const theirs = `${withStats}- see [auto-stats.md](auto-stats.md) for the numbers\n`;
    const again = engram.stats(engram.memories(theirs, { ...index(['use-pnpm.md']), shown: [entry('use-pnpm.md', 'use pnpm, never npm')] }), [entry('auto-stats.md', '9 prompts')]);
    expect(again).toBe(
      '- [use-pnpm.md](use-pnpm.md) — use pnpm, never npm\n- IMPORTANT: re-read [use-pnpm.md](use-pnpm.md) before installs\n- [auto-stats.md](auto-stats.md) — 9 prompts\n- see [auto-stats.md](auto-stats.md) for the numbers\n',
    );
  });

  it('keeps a person\'s own index line for a memory they wrote, and adds none of its own', () => {
    const theirs = '- [handwritten.md](handwritten.md) — handwritten KEEP-ME\n';
    const engram = writers();
    const merged = engram.memories(theirs, index(['handwritten.md', 'a.md']));
    expect(merged).toBe('- [handwritten.md](handwritten.md) — handwritten KEEP-ME\n- [a.md](a.md) — about a.md\n');
    expect(engram.memories(merged, index(['handwritten.md', 'a.md']))).toBe(merged);
  });

  // The crash-test loop found this: the stats and memories lanes run at their own pace, so which
  // one first reaches a directory is the machine's timing (a lane held up by a kill, a loaded
  // machine); MEMORY.md must come out the same either way, as a replay writes it.
  it('is the same whichever writer reaches the directory first', () => {
    const stats = [entry('auto-stats.md', 'stats'), entry('auto-errors.md', 'errors')];
    const hand = '# Notes by hand\n';
    for (const start of [undefined, hand]) {
      for (const [shown, archived] of [[['a.md', 'b.md'], []], [['a.md'], ['b.md']], [[], ['b.md']]] as const) {
        const idx = index([...shown], [...archived]);
        const statsFirst = writers();
        const memoriesFirst = writers();
        const a = statsFirst.memories(statsFirst.stats(start, stats), idx);
        const b = memoriesFirst.stats(memoriesFirst.memories(start, idx), stats);
        expect(a).toBe(b);
        // And again, later, over what each left: a new memory, the stats' numbers changed.
        const later = index([...shown, 'c.md'], [...archived]);
        const stats2 = [entry('auto-stats.md', 'stats, later'), entry('auto-errors.md', 'errors')];
        expect(statsFirst.stats(statsFirst.memories(a, later), stats2)).toBe(memoriesFirst.memories(memoriesFirst.stats(b, stats2), later));
      }
    }
    // Near the line limit too: the stats' lines do not take the memories' room (HEADROOM keeps theirs).
    const many = Array.from({ length: 250 }, (_, i) => `m${String(i).padStart(3, '0')}.md`);
    const statsFirst = writers();
    const memoriesFirst = writers();
    const a = statsFirst.memories(statsFirst.stats(undefined, stats), index(many));
    expect(a).toBe(memoriesFirst.stats(memoriesFirst.memories(undefined, index(many)), stats));
    expect(a.trimEnd().split('\n').length).toBeLessThanOrEqual(INDEX_LINE_LIMIT);
  });

  it('depends only on what each writer last wrote, not on how their writes interleaved', () => {
    const files = ['a.md', 'b.md', 'c.md'];
    const memoriesSteps = fc.array(fc.record({ shown: fc.subarray(files), archived: fc.subarray(files) }), { minLength: 1, maxLength: 4 }).map((steps) => {
      // A memory once archived stays so (a restore is rare): the blank line engram puts before its
      // archive section is left when the section goes (a blank line is nobody's in particular).
      const archivedSoFar = new Set<string>();
      return steps.map(({ shown, archived }) => {
        for (const file of archived) archivedSoFar.add(file);
        return index(shown.filter((f) => !archivedSoFar.has(f)), [...archivedSoFar]);
      });
    });
    const statsStep = fc.subarray(['auto-stats.md', 'auto-errors.md'], { minLength: 1 }).chain((names) => fc.constantFrom('', ' again').map((tail) => names.map((name) => entry(name, `${name}${tail}`))));
    fc.assert(
      fc.property(fc.constantFrom<string | undefined>(undefined, '# Notes by hand\n'), memoriesSteps, fc.array(statsStep, { minLength: 1, maxLength: 3 }), fc.array(fc.boolean(), { maxLength: 7 }), (start, memories, stats, picks) => {
        // One order: every memories write, then every stats write; the other: interleaved as `picks` says.
        const apart = writers();
        let one = start;
        for (const idx of memories) one = apart.memories(one, idx);
        for (const entries of stats) one = apart.stats(one, entries);
        const mixed = writers();
        let other = start;
        const m = [...memories];
        const st = [...stats];
        for (const pick of picks) {
          if (pick && m.length > 0) other = mixed.memories(other, m.shift()!);
          else if (st.length > 0) other = mixed.stats(other, st.shift()!);
        }
        for (const idx of m) other = mixed.memories(other, idx);
        for (const entries of st) other = mixed.stats(other, entries);
        expect(other).toBe(one);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a garbled MEMORY.md\'s bytes as they are, never rewritten to U+FFFD, and says so', () => {
    const junk = Buffer.from([0x66, 0xff, 0xfe, 0x00, 0x80, 0x0a, 0xc3, 0x28]);
    const existing = Buffer.concat([Buffer.from('# notes\n'), junk]);
    const merged = mergeIndexText(existing, [], { kind: 'memories', index: index(['a.md']) });
    expect(merged.garbled).toBe(true);
    expect(merged.bytes.subarray(0, existing.length).equals(existing)).toBe(true);
    expect(merged.bytes.subarray(existing.length).toString()).toBe('\n- [a.md](a.md) — about a.md\n');
  });
});
