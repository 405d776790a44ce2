import { describe, expect, it } from 'vitest';
import { classifyMemoryIndex } from '../src/memories/classify-memory-index.js';
import { indexDescriptions } from '../src/memories/index-descriptions.js';
import { inlineEntries } from '../src/memories/inline-entries.js';
import { indexLine, mergeIndexText, type MemoryIndex } from '../src/ownership/memory-index-lines.js';

const mergeMemoryIndex = (existing: string, index: MemoryIndex) => mergeIndexText(Buffer.from(existing), undefined, { kind: 'memories', index }).bytes.toString();

describe('a standalone MEMORY.md', () => {
  const text = [
    '# Memory',
    '## Preferences',
    '- Always use pnpm',
    '  (the lockfile is pnpm-lock.yaml)',
    '```',
    '- not an entry: inside a code fence',
    '```',
    '## Links',
    '1. The runbook is in docs/runbook.md',
    '<!-- - a comment, not an entry -->',
    '',
  ].join('\n');

  it('yields one memory per inline entry, with its indented lines, typed by the heading above it', () => {
    const entries = inlineEntries(classifyMemoryIndex(text).lines);
    expect(entries.map(({ lines, name, type, body }) => ({ lines, name, type, body }))).toEqual([
      { lines: ['- Always use pnpm', '  (the lockfile is pnpm-lock.yaml)'], name: 'Always use pnpm', type: 'user', body: '- Always use pnpm\n  (the lockfile is pnpm-lock.yaml)\n' },
      { lines: ['1. The runbook is in docs/runbook.md'], name: 'The runbook is in docs/runbook.md', type: 'reference', body: '1. The runbook is in docs/runbook.md\n' },
    ]);
  });

  it('has its entries replaced by index lines where they stood, every other line kept, and merging again changes nothing', () => {
    const entries = inlineEntries(classifyMemoryIndex(text).lines);
    const index = {
      shown: [{ file: 'always-use-pnpm.md', description: 'Always use pnpm' }, { file: 'runbook.md', description: 'The runbook is in docs/runbook.md' }],
      archived: [],
      replaces: entries.flatMap((entry) => entry.lines),
    };
    const merged = mergeMemoryIndex(text, index);
    expect(merged).toBe(
      [
        '# Memory',
        '## Preferences',
        '- [always-use-pnpm.md](always-use-pnpm.md) — Always use pnpm',
        '- [runbook.md](runbook.md) — The runbook is in docs/runbook.md',
        '```',
        '- not an entry: inside a code fence',
        '```',
        '## Links',
        '<!-- - a comment, not an entry -->',
        '',
      ].join('\n'),
    );
    expect(mergeMemoryIndex(merged, index)).toBe(merged);
  });
});

describe('index links', () => {
  it('escape what would end the link, and are read back to the file name with their description', () => {
    const line = indexLine({ file: 'my notes (old).md', description: 'what I noted' });
    expect(line).toBe('- [my notes (old).md](my%20notes%20%28old%29.md) — what I noted');
    expect(indexDescriptions(classifyMemoryIndex(`${line}\n`).lines)).toEqual(new Map([['my notes (old).md', 'what I noted']]));
  });
});
