import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../src/errors.js';
import { classifyMemoryIndex } from '../src/memories/classify-memory-index.js';
import { canWriteBack } from '../src/memories/memory-file.js';
import { MEMORY_FILE_MAX_BYTES, readMemoryDir, type MemoryDir } from '../src/memories/read-memory-dir.js';
import { repoRoot } from './support/temp-home.js';

const fixtures = join(repoRoot, 'fixtures', 'memory-files');
const temps: string[] = [];

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-memdir-'));
  temps.push(dir);
  return dir;
}

/** A copy of a fixture directory to add links, FIFOs and big files to. */
function copyOf(fixture: string): string {
  const dir = join(temp(), 'memory');
  cpSync(join(fixtures, fixture), dir, { recursive: true });
  return dir;
}

function names(list: Array<{ fileName: string }>): string[] {
  return list.map((e) => e.fileName);
}

function memory(result: MemoryDir, fileName: string) {
  const found = [...result.memories, ...result.archived].find((m) => m.fileName === fileName);
  if (!found) throw new Error(`${fileName} not read`);
  return found.parsed;
}

/** Every path under dir with its bytes' hash and mtime: what "never writes anything" is checked against. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    out.push(`${path} ${stat.mode} ${stat.mtimeMs}${stat.isFile() ? ` ${createHash('sha256').update(readFileSync(path)).digest('hex')}` : ''}`);
    if (stat.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  walk(dir);
  return out;
}

describe('readMemoryDir on the shapes real tools write', () => {
  it("reads Claude Code's own directory: memories, the index, the archive", async () => {
    const dir = join(fixtures, 'claude-code-native');
    const result = await readMemoryDir(dir);
    expect(names(result.memories)).toEqual([
      'feedback_no-force-push.md',
      'feedback_run-tests-before-push.md',
      'project_release-train.md',
      'reference_staging-dashboards.md',
      'user_prefers-short-answers.md',
    ]);
    expect(names(result.archived)).toEqual(['_archive/project_old-ci.md']);
    expect(result.unreadable).toEqual([]);
    expect(result.skipped).toEqual([]);
    expect(result.memories.map((m) => m.parsed.type)).toEqual(['feedback', 'feedback', 'project', 'reference', 'user']);
    expect(memory(result, 'feedback_no-force-push.md').name).toBe('No force-push on shared branches');
    expect(memory(result, '_archive/project_old-ci.md')).toMatchObject({ type: 'project', modified: '2026-03-20T08:00:00.000Z' });
    expect(result.memories.every((m) => canWriteBack(m.parsed))).toBe(true);

    expect(result.index?.layout).toBe('index');
    expect(result.index?.lines).toHaveLength(5);
    expect(result.index?.lines.every((l) => l.kind === 'link' && l.exists === true)).toBe(true);
    expect(result.index?.lines[0]).toMatchObject({
      target: 'feedback_run-tests-before-push.md',
      description: 'run the whole suite before any push; CI minutes are shared with the data team',
    });

    const first = result.memories[0]!;
    const bytes = readFileSync(join(dir, first.fileName));
    expect(first).toMatchObject({
      path: join(dir, first.fileName),
      size: bytes.length,
      hash: createHash('sha256').update(bytes).digest('base64url').slice(0, 22),
    });
    expect(first.mtimeMs).toBe(statSync(join(dir, first.fileName)).mtimeMs);
  });

  it('reads a mixed MEMORY.md, names with spaces and accents, a note without frontmatter, and dead links', async () => {
    const result = await readMemoryDir(join(fixtures, 'mixed-index'));
    expect(result.unreadable).toEqual([]);
    expect(names(result.memories)).toContain("réunion d'équipe notes.md");
    expect(memory(result, "réunion d'équipe notes.md")).toMatchObject({ name: "réunion d'équipe — notes", type: 'project' });
    expect(memory(result, 'landing-page-plan.md')).toMatchObject({ name: 'landing-page-plan', type: 'unknown', hadFrontmatter: false });
    expect(memory(result, 'landing-page-plan.md').body).toContain('\n---\n');

    const index = result.index!;
    expect(index.layout).toBe('mixed');
    const links = index.lines.filter((l) => l.kind === 'link');
    expect(links.map((l) => [l.target, l.exists])).toEqual([
      ['feedback_pnpm-only.md', true],
      ['project_invoice-export.md', true],
      ['reference_ops-runbook.md', true],
      ['landing-page-plan.md', true],
      ["réunion d'équipe notes.md", true],
      ['old-decision.md', false],
    ]);
    expect(links[3]).toMatchObject({ label: 'landing page plan' });
    expect(index.lines.filter((l) => l.kind === 'entry').map((l) => l.line)).toEqual([8, 9]);
    expect(index.lines.filter((l) => l.kind === 'heading')).toHaveLength(4);
  });

  it("reads a plugin's layout: sessions/ left as a subdirectory, links into it, topic files never written", async () => {
    const result = await readMemoryDir(join(fixtures, 'plugin-session-memory'));
    expect(names(result.memories)).toEqual(['architecture.md']);
    expect(result.skipped).toEqual([{ fileName: 'sessions', kind: 'directory' }]);
    const index = result.index!;
    expect(index.layout).toBe('mixed');
    expect(index.lines.filter((l) => l.kind === 'link').map((l) => [l.label, l.target, l.exists, l.description])).toEqual([
      ['2026-09-18-174205', 'sessions/4a1f9c3e-8b2d-4e60-9f17-c5d3a2b1e0f8.md', true, 'feature/refund-reasons @ 3e9c1a7 - 4 files'],
      ['2026-09-17-091130', 'sessions/b8e2d4f6-1a3c-4b5e-8d7f-0e9a2c4b6d81.md', false, 'main @ 7d2f0b4 - 0 files'],
      ['Architecture', 'architecture.md', true, 'System design and decisions'],
      ['Learnings', 'learnings.md', false, 'Insights and solutions discovered'],
    ]);
    expect(index.lines.filter((l) => l.kind === 'comment')).toHaveLength(2);
  });

  it('reads a standalone MEMORY.md as a store, and one with only a comment as empty', async () => {
    const standalone = await readMemoryDir(join(fixtures, 'standalone-store'));
    expect(standalone.memories).toEqual([]);
    expect(standalone.index?.layout).toBe('standalone');
    expect(standalone.index?.lines.some((l) => l.kind === 'link')).toBe(false);
    const fenced = standalone.index!.lines.filter((l) => l.text.startsWith('perch which') || l.text.startsWith('```'));
    expect(fenced.every((l) => l.kind === 'text')).toBe(true);

    const empty = await readMemoryDir(join(fixtures, 'empty-index'));
    expect(empty.index).toMatchObject({ layout: 'empty', lines: [{ line: 1, kind: 'comment' }] });
  });

  it('reads rich frontmatter from memory tools', async () => {
    const result = await readMemoryDir(join(fixtures, 'rich-frontmatter'));
    expect(result.unreadable).toEqual([]);
    expect(memory(result, 'guard-tests-the-threat.md')).toMatchObject({ confidence: 0.95, created: '2026-09-24T18:58:33Z', type: 'unknown' });
    expect(memory(result, 'incisive-review-style.md')).toMatchObject({ tier: 'procedural', confidence: 0.75, created: '2026-05-11', type: 'unknown' });
    expect(memory(result, 'north-star.md')).toMatchObject({ name: 'north-star', status: 'active' });
    expect(memory(result, 'metadata-then-tags.md')).toMatchObject({ type: 'feedback', extra: { top: [{ key: 'tags' }], metadata: [] } });
    expect(result.memories.every((m) => canWriteBack(m.parsed))).toBe(true);
  });

  it('reports what it cannot read, and reads malformed frontmatter as type unknown', async () => {
    const result = await readMemoryDir(join(fixtures, 'malformed'));
    expect(result.unreadable.map((u) => [u.fileName, u.reason])).toEqual([
      ['binary.md', 'binary'],
      ['latin1.md', 'not-utf8'],
    ]);
    const malformed = Object.fromEntries(result.memories.map((m) => [m.fileName, m.parsed.malformed]));
    expect(malformed).toMatchObject({
      'unclosed-frontmatter.md': expect.stringMatching(/no closing/),
      'tab-indented.md': expect.stringMatching(/Tabs/),
      'duplicate-keys.md': expect.stringMatching(/unique/),
      'not-a-mapping.md': expect.stringMatching(/not fields/),
    });
    for (const name of ['unclosed-frontmatter.md', 'tab-indented.md', 'duplicate-keys.md', 'not-a-mapping.md']) {
      expect(memory(result, name).type).toBe('unknown');
      expect(memory(result, name).body).toBe(readFileSync(join(fixtures, 'malformed', name), 'utf8'));
    }
    expect(memory(result, 'comments.md').readOnly).toMatch(/comments/);
    expect(memory(result, 'huge-id.md').readOnly).toMatch(/too large/);
    expect(memory(result, 'crlf.md')).toMatchObject({ name: 'crlf-file', type: 'user', body: '\r\nLine one.\r\nLine two.\r\n' });
    expect(memory(result, 'bom.md')).toMatchObject({ name: 'with-bom', type: 'reference' });
    expect(memory(result, 'empty.md')).toMatchObject({ name: 'empty', hadFrontmatter: false, body: '' });
    expect(memory(result, 'flattened-metadata.md')).toMatchObject({ name: 'flattened-metadata', type: 'feedback' });
    expect(memory(result, 'invalid-values.md')).toMatchObject({ type: 'unknown', modified: '2026-09-16T03:05:52.094Z' });
    expect(memory(result, 'invalid-values.md').warnings.filter((w) => w.includes('not valid'))).toHaveLength(3);
  });
});

describe('readMemoryDir on the file system', () => {
  it('never follows a symlink out of the directory, and follows one that stays inside', async () => {
    const dir = copyOf('claude-code-native');
    const outside = join(temp(), 'secret.md');
    writeFileSync(outside, '---\nname: secret\n---\nnot for engram\n');
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes', 'inside.md'), '---\nname: inside\ntype: user\n---\n');
    symlinkSync(outside, join(dir, 'leak.md'));
    symlinkSync(join(dir, 'notes', 'inside.md'), join(dir, 'alias.md'));
    symlinkSync('user_prefers-short-answers.md', join(dir, 'relative-alias.md'));
    symlinkSync(join(dir, 'nowhere.md'), join(dir, 'dangling.md'));
    symlinkSync('../..', join(dir, 'escape.md'));
    const result = await readMemoryDir(dir);
    expect(result.unreadable.map((u) => [u.fileName, u.reason])).toEqual([
      ['dangling.md', 'broken-symlink'],
      ['escape.md', 'symlink-outside'],
      ['leak.md', 'symlink-outside'],
    ]);
    expect(JSON.stringify(result)).not.toContain('not for engram');
    expect(memory(result, 'alias.md')).toMatchObject({ name: 'inside', type: 'user' });
    expect(memory(result, 'relative-alias.md').name).toBe('user_prefers-short-answers');
    expect(result.skipped).toEqual([{ fileName: 'notes', kind: 'directory' }]);
  });

  it('does not read an _archive that is a symlink out of the directory', async () => {
    const dir = copyOf('claude-code-native');
    const elsewhere = join(temp(), 'elsewhere');
    cpSync(join(dir, '_archive'), elsewhere, { recursive: true });
    rmSync(join(dir, '_archive'), { recursive: true });
    symlinkSync(elsewhere, join(dir, '_archive'));
    const result = await readMemoryDir(dir);
    expect(result.archived).toEqual([]);
    expect(result.unreadable).toMatchObject([{ fileName: '_archive', reason: 'symlink-outside' }]);
  });

  it('reads a memory directory that is itself a symlink (a memory folder kept in a repository)', async () => {
    const real = copyOf('claude-code-native');
    const link = join(temp(), 'memory-link');
    symlinkSync(real, link);
    const result = await readMemoryDir(link);
    expect(result.dir).toBe(link);
    expect(result.realDir).toBe(real);
    expect(result.memories).toHaveLength(5);
    expect(result.memories[0]!.path.startsWith(link)).toBe(true);
  });

  it('reports a directory or a FIFO named *.md without blocking on it', async () => {
    const dir = copyOf('empty-index');
    mkdirSync(join(dir, 'folder.md'));
    const fifo = spawnSync('mkfifo', [join(dir, 'pipe.md')]);
    const result = await readMemoryDir(dir);
    const expected = [['folder.md', 'not-a-file']];
    if (fifo.status === 0) expected.push(['pipe.md', 'not-a-file']);
    expect(result.unreadable.map((u) => [u.fileName, u.reason])).toEqual(expected);
  });

  it('reads a 2 MB memory and reports one over the cap without reading it', async () => {
    const dir = copyOf('empty-index');
    const body = 'A long line of a long memory, [[with-a-link]] and a --- in it.\n'.repeat(33_000);
    writeFileSync(join(dir, 'big.md'), `---\nname: big\ntype: reference\n---\n${body}`);
    writeFileSync(join(dir, 'small.md'), '---\nname: small\n---\n');
    const result = await readMemoryDir(dir);
    expect(result.memories.find((m) => m.fileName === 'big.md')).toMatchObject({ size: body.length + 34, parsed: { name: 'big', body } });
    expect(MEMORY_FILE_MAX_BYTES).toBe(8 * 1024 * 1024);

    const capped = await readMemoryDir(dir, { maxBytes: 1024 * 1024 });
    expect(capped.unreadable).toMatchObject([{ fileName: 'big.md', reason: 'too-large' }]);
    expect(names(capped.memories)).toEqual(['small.md']);
  });

  it('reports a file name that is not UTF-8, and skips hidden and non-markdown files', async () => {
    const dir = copyOf('empty-index');
    let badName = true;
    try {
      writeFileSync(Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from('.md')]), '---\nname: x\n---\n');
    } catch {
      badName = false; // a file system that refuses such names cannot hold one either
    }
    writeFileSync(join(dir, '.draft.md'), 'hidden');
    writeFileSync(join(dir, '.DS_Store'), 'x');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, 'plain name with spaces.md'), 'no frontmatter\n');
    const result = await readMemoryDir(dir);
    expect(names(result.memories)).toEqual(['plain name with spaces.md']);
    expect(result.skipped).toEqual([
      { fileName: '.DS_Store', kind: 'hidden' },
      { fileName: '.draft.md', kind: 'hidden' },
      { fileName: 'notes.txt', kind: 'not-markdown' },
    ]);
    if (badName) expect(result.unreadable).toMatchObject([{ fileName: 'caf\uFFFD.md', reason: 'bad-name' }]);
  });

  it('reports a file it is not allowed to read, and reads the rest', async () => {
    const dir = copyOf('claude-code-native');
    chmodSync(join(dir, 'project_release-train.md'), 0o000);
    const script = `import('${join(repoRoot, 'dist', 'src', 'memories', 'read-memory-dir.js')}').then(async (m) => console.log(JSON.stringify(await m.readMemoryDir(${JSON.stringify(dir)}))))`;
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      // Root reads anything: run as nobody, who owns the copy but for the one closed file.
      chownTree(join(dir, '..'), 65534);
      chownSync(join(dir, 'project_release-train.md'), 0, 0);
    }
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    const result = JSON.parse(output) as MemoryDir;
    expect(result.unreadable).toMatchObject([{ fileName: 'project_release-train.md', reason: 'unreadable', detail: expect.stringMatching(/EACCES/) }]);
    expect(result.memories).toHaveLength(4);
  });

  it('writes nothing, not even to the directory it reads', async () => {
    const dir = copyOf('malformed');
    cpSync(join(fixtures, 'mixed-index'), join(dir, '_archive'), { recursive: true });
    const before = snapshot(join(dir, '..'));
    await readMemoryDir(dir);
    expect(snapshot(join(dir, '..'))).toEqual(before);
  });

  it('refuses a directory that is missing or is a file, with a code and a cause', async () => {
    const base = temp();
    writeFileSync(join(base, 'file'), 'x');
    for (const path of [join(base, 'missing'), join(base, 'file')]) {
      const error = await readMemoryDir(path).catch((err: unknown) => err);
      expect(isEngramError(error, 'MEMORY_DIR_UNREADABLE')).toBe(true);
      expect((error as Error).cause).toBeDefined();
    }
  });
});

describe('classifyMemoryIndex', () => {
  it('reads index lines in the ways people and tools write them', () => {
    const { layout, lines } = classifyMemoryIndex(
      [
        '- [a.md](a.md) — em dash',
        '* [B](b.md) – en dash',
        '+ [c.md](c.md) - hyphen',
        '1. [d.md](./d.md): colon',
        '- [[e-note]] — a wikilink',
        '- [[f-note|F]]',
        '- [spaced](<my notes.md>) — angle brackets',
        '- [escaped \\] label](g%20h.md "title")',
        '[bare](bare.md) no list marker',
      ].join('\r\n'),
    );
    expect(layout).toBe('index');
    expect(lines.map((l) => [l.kind, l.target, l.label, l.description])).toEqual([
      ['link', 'a.md', 'a.md', 'em dash'],
      ['link', 'b.md', 'B', 'en dash'],
      ['link', 'c.md', 'c.md', 'hyphen'],
      ['link', './d.md', 'd.md', 'colon'],
      ['link', 'e-note.md', 'e-note', 'a wikilink'],
      ['link', 'f-note.md', 'F', ''],
      ['link', 'my notes.md', 'spaced', 'angle brackets'],
      ['link', 'g h.md', 'escaped ] label', ''],
      ['link', 'bare.md', 'bare', 'no list marker'],
    ]);
  });

  it('takes links to the web, to non-markdown files and links later in a line for inline entries', () => {
    const { layout, lines } = classifyMemoryIndex(
      ['- [docs](https://example.com/x.md) — web', '- [img](shot.png)', '- see [a.md](a.md) for more', 'Plain prose.', '| a | b |'].join('\n'),
    );
    expect(layout).toBe('standalone');
    expect(lines.map((l) => l.kind)).toEqual(['entry', 'entry', 'entry', 'text', 'text']);
  });

  it('keeps comments, headings, blank lines and fenced code apart', () => {
    const { layout, lines } = classifyMemoryIndex(
      ['\uFEFF# Title', '', '<!--', '- [a.md](a.md) inside a comment', '-->', '```md', '- [b.md](b.md) inside a fence', '```', '- [c.md](c.md) — real', ''].join('\n'),
    );
    expect(lines.map((l) => l.kind)).toEqual(['heading', 'blank', 'comment', 'comment', 'comment', 'text', 'text', 'text', 'link']);
    expect(layout).toBe('mixed');
    expect(classifyMemoryIndex('').layout).toBe('empty');
    expect(classifyMemoryIndex('# Only a heading\n\n<!-- and a comment -->\n').layout).toBe('empty');
  });
});

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (!lstatSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) {
    const child = join(path, name);
    if (!lstatSync(child).isSymbolicLink()) chownTree(child, uid);
  }
}
