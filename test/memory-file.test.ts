import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isEngramError } from '../src/errors.js';
import { METADATA_FIELDS, TOP_FIELDS } from '../src/memories/memory-fields.js';
import {
  canWriteBack,
  parseMemoryFile,
  renderMemoryFile,
  type ExtraField,
  type MemoryFileContent,
  type ParsedMemoryFile,
  type YamlValue,
} from '../src/memories/memory-file.js';
import { MEMORY_TYPES, STATUSES, TIERS } from '../src/events/memory-kinds.js';
import { repoRoot } from './support/temp-home.js';

const fixtures = join(repoRoot, 'fixtures', 'memory-files');

/** The content part of a parse result, without what parsing adds. */
function contentOf(parsed: ParsedMemoryFile): MemoryFileContent {
  const { hadFrontmatter: _h, warnings: _w, malformed: _m, readOnly: _r, ...content } = parsed;
  return content;
}

function content(partial: Partial<MemoryFileContent>): MemoryFileContent {
  return { name: 'a memory', description: 'what it says', type: 'user', extra: { top: [], metadata: [] }, body: 'Body.\n', ...partial };
}

// Text as people and tools write it, weighted towards what YAML and frontmatter readers trip on.
const tricky = fc.constantFrom(
  '---', '--- x', '...', 'a\n---\nb', 'x: y', 'key:', '# heading', ' #', 'a #b', '*star', '&anchor', '!bang', '%pct', '@at', '`tick',
  '"double"', "'single'", "it's", '- item', '? q', '[[wikilink]]', '[a, b]', '{a: 1}', '|', '>', 'yes', 'no', 'on', 'off', 'y', 'N',
  'true', 'null', '~', '1:30', '0777', '1_000', '0x1F', '1e3', '.inf', '.nan', '2026-05-11', '12345678901234567890', ' lead', 'trail ',
  'tab\tin', '\ttab', 'line1\nline2', 'cr\rlf', 'crlf\r\n', '\u2028sep', '\u2029para', '\u0085nel', '\uFEFFbom', '\u0007bell', '\u007F',
  'é 日本語 🎉 עברית', '—', '\u00A0nbsp', 'ends with backslash\\', 'a: b # c',
);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: tricky },
  { weight: 2, arbitrary: fc.array(fc.oneof(tricky, fc.string({ maxLength: 6 })), { maxLength: 4 }).map((parts) => parts.join(' ')) },
).filter((s) => !s.includes('\u0000'));
const nonBlank = text.filter((s) => s.trim() !== '');
const body = fc.oneof(
  text,
  fc.array(fc.oneof(text, fc.constantFrom('---', '', '# Title', '---\r', '- [[x]]', '```', 'key: value')), { maxLength: 8 }).chain((lines) =>
    fc.constantFrom('\n', '\r\n').map((eol) => lines.join(eol)),
  ),
);
const isoIsh = fc.oneof(
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2026-09-24T18:58:33Z', '2026-09-24 18:58:33+02:00', '2026-02-28T12:00'),
);
const known = new Set<string>([...TOP_FIELDS, ...METADATA_FIELDS, 'metadata']);
const yamlValue: fc.Arbitrary<YamlValue> = fc.letrec<{ value: YamlValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double().filter((n) => !Number.isInteger(n) || Number.isSafeInteger(n) || !/^-?\d+$/.test(String(n))),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const extras = fc
  .uniqueArray(fc.tuple(text.filter((k) => !known.has(k)), yamlValue, fc.boolean()), { selector: ([k]) => k, maxLength: 5 })
  .map((fields) =>
    fields.map(([key, value, flow]): ExtraField =>
      flow && typeof value === 'object' && value !== null && Object.keys(value).length > 0 ? { key, value, flow: true } : { key, value },
    ),
  );
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const memoryContent: fc.Arbitrary<MemoryFileContent> = fc.record({
  name: nonBlank,
  description: text,
  type: fc.constantFrom(...MEMORY_TYPES),
  modified: optional(isoIsh),
  tier: optional(fc.constantFrom(...TIERS)),
  confidence: optional(fc.double({ min: 0, max: 1, noNaN: true })),
  reinforced: optional(fc.nat()),
  last_reinforced: optional(isoIsh),
  status: optional(fc.constantFrom(...STATUSES)),
  contradicts: optional(fc.oneof(nonBlank, fc.array(nonBlank, { maxLength: 3 }))),
  superseded_by: optional(nonBlank),
  superseded_at: optional(isoIsh),
  implemented_in: optional(fc.oneof(nonBlank, fc.array(nonBlank, { maxLength: 3 }))),
  pinned: optional(fc.boolean()),
  created: optional(isoIsh),
  origin_session: optional(nonBlank),
  extra: fc.record({ top: extras, metadata: extras }),
  body,
});

describe('parseMemoryFile ∘ renderMemoryFile', () => {
  it('gives back the content it was given, for generated contents with tricky text', () => {
    fc.assert(
      fc.property(memoryContent, (x) => {
        const parsed = parseMemoryFile(renderMemoryFile(x), 'generated.md');
        expect(parsed.malformed).toBeUndefined();
        expect(parsed.readOnly).toBeUndefined();
        expect(contentOf(parsed)).toEqual(x);
      }),
      { numRuns: 600 },
    );
  });

  it('renders the same bytes for the same content, and again after a read', () => {
    fc.assert(
      fc.property(memoryContent, (x) => {
        const once = renderMemoryFile(x);
        expect(renderMemoryFile(structuredClone(x))).toBe(once);
        expect(renderMemoryFile(parseMemoryFile(once, 'generated.md'))).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('never writes a line that is exactly --- inside the frontmatter', () => {
    fc.assert(
      fc.property(memoryContent, (x) => {
        const out = renderMemoryFile(x);
        const frontmatter = out.slice(0, out.length - x.body.length).split(/\r?\n/);
        expect(frontmatter[0]).toBe('---');
        expect(frontmatter.slice(1, -2).filter((line) => /^---\s*$/.test(line))).toEqual([]);
        expect(frontmatter.at(-2)).toBe('---');
      }),
      { numRuns: 300 },
    );
  });

  it('quotes names and descriptions that would otherwise be misread', () => {
    const cases = ['---', 'a\n---\nb', 'x: y', '# not a comment', '*alias', '&anchor', '!tag', '"quoted"', 'yes', '1:30', ' padded ', 'x\u2028y', '-dash'];
    for (const s of cases) {
      const out = renderMemoryFile(content({ name: s, description: s }));
      const parsed = parseMemoryFile(out, 'x.md');
      expect([parsed.name, parsed.description]).toEqual([s, s]);
      const nameLine = out.split('\n')[1]!;
      expect(nameLine.startsWith('name: "') || nameLine.startsWith("name: '")).toBe(true);
    }
    expect(renderMemoryFile(content({ name: 'plain name', description: 'é 日本語' }))).toContain('name: plain name\ndescription: é 日本語\n');
  });
});

describe('renderMemoryFile', () => {
  it('writes Claude Code fields, unknown top-level fields, then metadata: modified, engram fields, unknown metadata fields', () => {
    const out = renderMemoryFile(
      content({
        name: 'prefer-pnpm',
        description: 'use pnpm, never npm, in this repository',
        type: 'feedback',
        pinned: true,
        confidence: 0.8,
        tier: 'preference',
        modified: '2026-09-03T10:00:00.000Z',
        contradicts: ['use-npm'],
        extra: { top: [{ key: 'tags', value: ['tooling', 'js'], flow: true }], metadata: [{ key: 'originSessionId', value: 'c0ffee' }] },
        body: '\nAlways pnpm.\n',
      }),
    );
    expect(out).toBe(
      [
        '---',
        'name: prefer-pnpm',
        'description: use pnpm, never npm, in this repository',
        'type: feedback',
        'tags: [tooling, js]',
        'metadata:',
        '  modified: 2026-09-03T10:00:00.000Z',
        '  tier: preference',
        '  confidence: 0.8',
        '  contradicts:',
        '    - use-npm',
        '  pinned: true',
        '  originSessionId: c0ffee',
        '---',
        '',
        'Always pnpm.',
        '',
      ].join('\n'),
    );
  });

  it('leaves out an unknown type, an empty description and an empty metadata block', () => {
    expect(renderMemoryFile(content({ type: 'unknown', description: '', body: 'x' }))).toBe('---\nname: a memory\n---\nx');
  });

  it('writes CRLF frontmatter when the body uses CRLF', () => {
    expect(renderMemoryFile(content({ body: '\r\nline\r\n' }))).toBe('---\r\nname: a memory\r\ndescription: what it says\r\ntype: user\r\n---\r\n\r\nline\r\n');
  });

  it('refuses a parse result that must not be written back', () => {
    for (const text of ['---\nname: x\n', '---\n# a comment\nname: x\n---\n']) {
      const parsed = parseMemoryFile(text, 'x.md');
      expect(canWriteBack(parsed)).toBe(false);
      expect(() => renderMemoryFile(parsed)).toThrow(expect.objectContaining({ code: 'MEMORY_FILE_UNWRITABLE' }));
    }
  });

  it('refuses content that is not valid', () => {
    const bad: Array<Partial<MemoryFileContent>> = [
      { confidence: 2 },
      { reinforced: 1.5 },
      { tier: 'forever' as never },
      { modified: 'yesterday' },
      { created: '2026-02-30' },
      { name: '  ' },
      { body: 'a\u0000b' },
      { description: 'lone \uD800' },
      { extra: { top: [{ key: 'a', value: 1 }, { key: 'a', value: 2 }], metadata: [] } },
      { extra: { top: [{ key: 'metadata', value: 1 }], metadata: [] } },
      { extra: { top: [{ key: 'when', value: new Date() as never }], metadata: [] } },
    ];
    for (const partial of bad) {
      let error: unknown;
      try {
        renderMemoryFile(content(partial));
      } catch (err) {
        error = err;
      }
      expect(isEngramError(error, 'MEMORY_FILE_INVALID'), JSON.stringify(partial)).toBe(true);
    }
  });

  it('lets a field being set replace an invalid value kept under the same key', () => {
    const parsed = parseMemoryFile('---\nname: x\nmetadata:\n  status: settled\n  other: 1\n---\n', 'x.md');
    expect(parsed.status).toBeUndefined();
    expect(parsed.extra.metadata).toEqual([{ key: 'status', value: 'settled' }, { key: 'other', value: 1 }]);
    expect(renderMemoryFile(parsed)).toBe('---\nname: x\nmetadata:\n  status: settled\n  other: 1\n---\n');
    expect(renderMemoryFile({ ...parsed, status: 'active' })).toBe('---\nname: x\nmetadata:\n  status: active\n  other: 1\n---\n');
  });
});

describe('parseMemoryFile', () => {
  it("reads Claude Code's current layout: type and originSessionId under metadata, with a trailing space after metadata:", () => {
    const parsed = parseMemoryFile(
      '---\nname: ci-cache-key\ndescription: "The CI cache key includes the lockfile hash, so bumping a dev dependency busts it"\nmetadata: \n  node_type: memory\n  type: project\n  originSessionId: 0b6c1f7e-4d55-4c2a-9d1e-3f1a2b3c4d5e\n  modified: 2026-09-03T07:26:16.880Z\n---\n\nBody with [[a-wikilink]].\n',
      'ci-cache-key.md',
    );
    expect(parsed).toMatchObject({ name: 'ci-cache-key', type: 'project', modified: '2026-09-03T07:26:16.880Z', warnings: [] });
    expect(parsed.extra.metadata).toEqual([
      { key: 'node_type', value: 'memory' },
      { key: 'originSessionId', value: '0b6c1f7e-4d55-4c2a-9d1e-3f1a2b3c4d5e' },
    ]);
    expect(parsed.body).toBe('\nBody with [[a-wikilink]].\n');
  });

  it('accepts engram fields flat and writes them back under metadata', () => {
    const parsed = parseMemoryFile('---\nname: x\ntier: fact\nconfidence: 0.950\nreinforced: 3\npinned: false\ntags: [a, b]\n---\nbody', 'x.md');
    expect(parsed).toMatchObject({ tier: 'fact', confidence: 0.95, reinforced: 3, pinned: false });
    expect(parsed.extra.top).toEqual([{ key: 'tags', value: ['a', 'b'], flow: true }]);
    expect(renderMemoryFile(parsed)).toBe('---\nname: x\ntags: [a, b]\nmetadata:\n  tier: fact\n  confidence: 0.95\n  reinforced: 3\n  pinned: false\n---\nbody');
  });

  it('reads a field under metadata over the same field flat, and keeps the other one', () => {
    const parsed = parseMemoryFile('---\nname: x\ntier: fact\ntype: user\nmetadata:\n  tier: rule\n  type: project\n---\n', 'x.md');
    expect(parsed).toMatchObject({ tier: 'rule', type: 'user' });
    expect(parsed.extra).toEqual({ top: [{ key: 'tier', value: 'fact' }], metadata: [{ key: 'type', value: 'project' }] });
    expect(parsed.warnings.filter((w) => w.includes('both at the top and under metadata'))).toHaveLength(2);
    const again = parseMemoryFile(renderMemoryFile(parsed), 'x.md');
    expect(contentOf(again)).toEqual(contentOf(parsed));
  });

  it('keeps a known field with an invalid value as an unknown field, and says so', () => {
    const parsed = parseMemoryFile(
      '---\nname: x\ntype: concept\nconfidence: high\ncontradicts: [[other-note]]\nmodified: last tuesday\nsuperseded_by:\n---\n',
      'x.md',
    );
    expect(parsed.type).toBe('unknown');
    expect(parsed.confidence).toBeUndefined();
    expect(parsed.extra.top.map((e) => e.key)).toEqual(['type', 'confidence', 'contradicts', 'modified', 'superseded_by']);
    expect(parsed.extra.top[2]!.value).toEqual([['other-note']]);
    expect(parsed.warnings.filter((w) => w.includes('kept as an unknown field'))).toHaveLength(4);
    expect(canWriteBack(parsed)).toBe(true);
    expect(contentOf(parseMemoryFile(renderMemoryFile(parsed), 'x.md'))).toEqual(contentOf(parsed));
  });

  it('reads a file without frontmatter as a memory named after its file, of unknown type, body whole', () => {
    const text = '# Deploy notes\n\n---\n\nStaging deploys need the VPN.\n';
    const parsed = parseMemoryFile(text, '/some/dir/deploy notes é.md');
    expect(parsed).toMatchObject({ name: 'deploy notes é', description: '', type: 'unknown', body: text, hadFrontmatter: false });
    expect(canWriteBack(parsed)).toBe(true);
    expect(renderMemoryFile(parsed)).toBe(`---\nname: deploy notes é\n---\n${text}`);
  });

  it('reads an empty file and an empty frontmatter', () => {
    expect(parseMemoryFile('', 'empty.md')).toMatchObject({ name: 'empty', type: 'unknown', body: '', hadFrontmatter: false, warnings: ['empty file', 'no name: named after the file'] });
    expect(parseMemoryFile('---\n---\nbody\n', 'e.md')).toMatchObject({ name: 'e', body: 'body\n', hadFrontmatter: true });
  });

  it('does not take a --- block after blank lines for frontmatter, and will not write a second one above it', () => {
    const parsed = parseMemoryFile('\n---\nname: x\n---\nbody', 'x.md');
    expect(parsed.hadFrontmatter).toBe(false);
    expect(parsed.readOnly).toMatch(/after blank lines/);
  });

  it('reads CRLF files and keeps the body byte for byte', () => {
    const parsed = parseMemoryFile('---\r\nname: windows\r\ntype: user\r\nmetadata:\r\n  tier: fact\r\n---\r\n\r\nLine one.\r\nLine two.\r\n', 'w.md');
    expect(parsed).toMatchObject({ name: 'windows', type: 'user', tier: 'fact', body: '\r\nLine one.\r\nLine two.\r\n', warnings: ['no description'] });
    expect(renderMemoryFile(parsed)).toBe('---\r\nname: windows\r\ntype: user\r\nmetadata:\r\n  tier: fact\r\n---\r\n\r\nLine one.\r\nLine two.\r\n');
  });

  it('reads past a UTF-8 byte order mark and writes without it', () => {
    const parsed = parseMemoryFile('\uFEFF---\nname: bom\n---\nbody', 'b.md');
    expect(parsed).toMatchObject({ name: 'bom', body: 'body', hadFrontmatter: true });
    expect(parsed.warnings[0]).toMatch(/byte order mark/);
    expect(renderMemoryFile(parsed)).toBe('---\nname: bom\n---\nbody');
  });

  it('keeps a --- line in the body: the first --- after the opening one closes the frontmatter', () => {
    const parsed = parseMemoryFile('---\nname: x\n---\nabove\n---\nbelow\n---\n', 'x.md');
    expect(parsed.body).toBe('above\n---\nbelow\n---\n');
    expect(renderMemoryFile(parsed)).toBe('---\nname: x\n---\nabove\n---\nbelow\n---\n');
  });

  it('keeps wikilinks, lists and nested values of unknown fields', () => {
    const text = [
      '---',
      'name: north-star',
      'related:',
      '  - "[[project-history]]"',
      '  - "[[2026-07-20-local-review]]"',
      'generated:',
      '  by: process:ai-memory/2.3.2',
      '  at: 2026-09-21T14:48:58Z',
      'tags: [project/drone, north-star]',
      'superseded-by:',
      'supersedes: []',
      '---',
      'See [[memory]].',
      '',
    ].join('\n');
    const parsed = parseMemoryFile(text, 'n.md');
    expect(parsed.extra.top).toEqual([
      { key: 'related', value: ['[[project-history]]', '[[2026-07-20-local-review]]'] },
      { key: 'generated', value: { by: 'process:ai-memory/2.3.2', at: '2026-09-21T14:48:58Z' } },
      { key: 'tags', value: ['project/drone', 'north-star'], flow: true },
      { key: 'superseded-by', value: null },
      { key: 'supersedes', value: [] },
    ]);
    expect(contentOf(parseMemoryFile(renderMemoryFile(parsed), 'n.md'))).toEqual(contentOf(parsed));
  });

  it('tolerates trailing spaces and tabs between a key and its value; refuses tabs as indentation', () => {
    expect(parseMemoryFile('---\nname: spaced   \nmetadata: \n  tier: fact  \n---\n', 's.md')).toMatchObject({ name: 'spaced', tier: 'fact' });
    expect(parseMemoryFile('---\nname:\tfoo\n---\n', 't.md')).toMatchObject({ name: 'foo' });
    const tabbed = parseMemoryFile('---\nname: x\nmetadata:\n\ttier: fact\n---\nbody', 't.md');
    expect(tabbed.malformed).toMatch(/invalid YAML at line 4 of the file: Tabs are not allowed as indentation/);
    expect(tabbed).toMatchObject({ type: 'unknown', name: 't', body: '---\nname: x\nmetadata:\n\ttier: fact\n---\nbody' });
  });

  it('reports malformed frontmatter as type unknown with the whole text as body', () => {
    const cases: Array<[string, RegExp]> = [
      ['---\nname: x\nname: y\n---\n', /line 3 of the file: Map keys must be unique/],
      ['---\nname: x\nno closing line\n', /no closing ---/],
      ['---\nname: [unclosed\n---\n', /invalid YAML/],
      ['---\njust a sentence\n---\nbody', /a single value, not fields/],
      ['---\n- a\n- b\n---\nbody', /a list, not fields/],
      ['---\nname: x\n---\nbin\u0000ary', /binary/],
    ];
    for (const [text, why] of cases) {
      const parsed = parseMemoryFile(text, 'bad.md');
      expect(parsed.malformed, text).toMatch(why);
      expect(parsed).toMatchObject({ type: 'unknown', name: 'bad', body: text, extra: { top: [], metadata: [] } });
      expect(canWriteBack(parsed)).toBe(false);
    }
  });

  it('reads but will not write back what plain data cannot carry', () => {
    const cases: Array<[string, RegExp]> = [
      ['---\nname: x # why\n---\n', /comments/],
      ['---\n# leading comment\nname: x\n---\n', /comments/],
      ['---\nname: x\nbase: &b {a: 1}\ncopy: *b\n---\n', /anchor/],
      ['---\nname: x\nn: !!str 1\n---\n', /explicit tag/],
      ['---\nname: x\n1: one\n---\n', /key that is not text/],
      ['---\nname: x\nid: 123456789012345678901\n---\n', /too large/],
      ['---\nname: x\nmap: {"b": 1, "2": 2}\n---\n', /order/],
      ['---\nname: [a, b]\n---\n', /a name that is not text/],
      ['---\nname: x\nmetadata: flat text\n---\n', /metadata: that is not a mapping/],
    ];
    for (const [text, why] of cases) {
      const parsed = parseMemoryFile(text, 'ro.md');
      expect(parsed.malformed, text).toBeUndefined();
      expect(parsed.readOnly, text).toMatch(why);
      expect(canWriteBack(parsed)).toBe(false);
    }
  });

  it('reads a number or boolean as the text of a name', () => {
    expect(parseMemoryFile('---\nname: 404\ndescription: true\n---\n', 'n.md')).toMatchObject({ name: '404', description: 'true' });
  });

  it('keeps a key named __proto__ as a key', () => {
    const parsed = parseMemoryFile('---\nname: x\nextra:\n  __proto__: 1\n  constructor: 2\n---\n', 'p.md');
    expect(Object.keys(parsed.extra.top[0]!.value as object)).toEqual(['__proto__', 'constructor']);
    expect(renderMemoryFile(parsed)).toContain('extra:\n  __proto__: 1\n  constructor: 2\n');
  });

  it('reads a 2 MB memory quickly and keeps its body', () => {
    const big = `---\nname: big\ntype: reference\n---\n${'A line of a very long memory, with --- and [[links]].\n'.repeat(40_000)}`;
    expect(big.length).toBeGreaterThan(2_000_000);
    const started = performance.now();
    const parsed = parseMemoryFile(big, 'big.md');
    expect(renderMemoryFile(parsed)).toBe(big);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reads a huge frontmatter without recursing or alias blow-up', () => {
    const bomb = `---\nname: x\na: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n${Array.from({ length: 12 }, (_, i) => `b${i}: &b${i} [${Array(9).fill(i === 0 ? '*a' : `*b${i - 1}`).join(', ')}]`).join('\n')}\n---\n`;
    const parsed = parseMemoryFile(bomb, 'bomb.md');
    expect(parsed.malformed ?? parsed.readOnly).toBeDefined();
  });
});

describe('memory files are worker-side', () => {
  it('no hook bundle carries the YAML parser (hooks load only Node built-ins, DESIGN.md invariant 2)', () => {
    const hooks = join(repoRoot, 'dist', 'hooks');
    const bundles = readdirSync(hooks).filter((f) => f.endsWith('.cjs'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const file of bundles) {
      const bundle = readFileSync(join(hooks, file), 'utf8');
      expect(bundle, file).not.toContain('tag:yaml.org,2002');
      expect(bundle, file).not.toContain('parseMemoryFile');
    }
  });
});

describe('fixtures: real shapes read and written back', () => {
  const files = walk(fixtures).filter((f) => f.endsWith('.md') && !f.endsWith('MEMORY.md') && !f.endsWith('README.md'));

  it('has fixtures to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  it('writes back what engram wrote byte for byte', () => {
    const text = readFileSync(join(fixtures, 'rich-frontmatter', 'engram-written.md'), 'utf8');
    const parsed = parseMemoryFile(text, 'engram-written.md');
    expect(parsed.warnings).toEqual([]);
    expect(renderMemoryFile(parsed)).toBe(text);
  });

  for (const file of files) {
    const name = relative(fixtures, file);
    it(`${name}: keeps every unknown field and the body byte for byte`, () => {
      const bytes = readFileSync(file);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        return; // not UTF-8: read-memory-dir reports it, parsing never sees it
      }
      const parsed = parseMemoryFile(text, file);
      if (!canWriteBack(parsed)) {
        expect(() => renderMemoryFile(parsed)).toThrow();
        return;
      }
      const written = renderMemoryFile(parsed);
      expect(written.endsWith(parsed.body)).toBe(true);
      const again = parseMemoryFile(written, file);
      expect(again.malformed).toBeUndefined();
      expect(again.readOnly).toBeUndefined();
      expect(contentOf(again)).toEqual(contentOf(parsed));
      expect(renderMemoryFile(again)).toBe(written);
      if (parsed.hadFrontmatter && text.startsWith('---')) {
        // Every key of the original frontmatter is still in the file (metadata: may go, when
        // all it held was a type, which is written at the top).
        const frontmatter = text.slice(0, text.length - parsed.body.length);
        for (const key of frontmatter.matchAll(/^\s*([A-Za-z_][\w-]*):/gm)) if (key[1] !== 'metadata') expect(written).toContain(`${key[1]}:`);
      }
    });
  }
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? walk(path) : [path];
  });
}
