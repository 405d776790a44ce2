import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeIndex } from '../src/projections/memory-index.js';
import { INDEX_BYTE_LIMIT, INDEX_LINE_LIMIT, mergeMemoryIndex, type MemoryIndex } from '../src/projections/memories/memory-index-merge.js';

const entry = (file: string, description = `about ${file}`) => ({ file, description });
const index = (shown: string[], archived: string[] = [], others: string[] = []): MemoryIndex => ({
  shown: shown.map((file) => entry(file)),
  // Both places each file may be: where it is active, and in _archive/.
  managed: [...shown, ...others, ...archived].flatMap((file) => [file, `_archive/${file}`]),
  archived: archived.map((file) => ({ file: `_archive/${file}`, name: file.replace(/\.md$/, ''), note: 'archived 2026-11-02: decayed' })),
});

describe('MEMORY.md, as the memories projection writes it', () => {
  it('orders its entries as given, keeps every other line where it stands, byte for byte', () => {
    const mine = '# My notes\n\nSome *free* text, no link.  \n- [old.md](old.md) — stale words\n- [prefs.md](prefs.md) — mine, by hand\n';
    const merged = mergeMemoryIndex(mine, index(['b.md', 'old.md', 'a.md']));
    expect(merged).toBe(
      '# My notes\n\nSome *free* text, no link.  \n- [b.md](b.md) — about b.md\n- [old.md](old.md) — about old.md\n- [a.md](a.md) — about a.md\n- [prefs.md](prefs.md) — mine, by hand\n',
    );
  });

  it('takes out lines of provisional or superseded memories and points to archived ones', () => {
    const before = mergeMemoryIndex(undefined, index(['a.md', 'b.md', 'c.md']));
    const after = mergeMemoryIndex(before, index(['a.md'], ['b.md'], ['c.md']));
    expect(after).toBe('- [a.md](a.md) — about a.md\n\n## Archive Index\n- [b](_archive/b.md) — archived 2026-11-02: decayed\n');
    // The stats projection adds its lines before the archive section.
    expect(mergeIndex(after, [entry('auto-stats.md', 'stats')])).toBe(
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
    expect(mergeMemoryIndex(crlf, index(['a.md'], ['b.md']))).toBe(
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
        const idx = index(shown, archived.filter((f) => !shown.includes(f)), ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'].filter((f) => !shown.includes(f)));
        const text = existing.length > 0 ? `${existing.join('\n')}\n` : '';
        const once = mergeMemoryIndex(text, idx);
        expect(mergeMemoryIndex(once, idx)).toBe(once);
        const managed = new Set(idx.managed);
        const unmanaged = existing.filter((l) => !/\]\((?:\.\/)?([^)\s]+)\)/.test(l) || ![...l.matchAll(/\]\(\s*(?:\.\/)?([^)\s]+)\s*\)/g)].some((m) => managed.has(m[1]!)));
        const out = once.split('\n');
        for (const l of unmanaged) if (l.trim() !== '## Archive Index') expect(out).toContain(l);
      }),
      { numRuns: 300 },
    );
  });
});
