import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { projectMemoryDir, projectSlug, resolvePaths } from '../src/paths.js';
import { fastembedEmbedder, bgeSmallDir } from '../src/recall/embedders/fastembed-embedder.js';
import type { Embedder } from '../src/indexes/embedder.js';
import { openEngine, type ComposedEngine } from '../src/composition/open-engine.js';
import { SKILL_MATCH_THRESHOLD } from '../src/reactors/skill-matcher.js';
import { skillsAccept, skillsDecline, skillsSuggest } from '../src/commands/skill-commands.js';
import type { CommandOutput } from '../src/commands/command.js';
import { walkFiles } from './support/temp-home.js';
import { writeTinyBertModel } from './support/tiny-bert-model.js';

const root = mkdtempSync(join(tmpdir(), 'engram-skills-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const T0 = '2026-11-01T09:00:00.000Z';
let seq = 0;
const event = (type: string, project: string, data: unknown, ts = T0): Envelope => ({
  id: `evt-skill-${String(++seq).padStart(6, '0')}`, type, schemaVersion: type === 'PromptSubmitted' ? 2 : 1, ts, session: 'sess-1', project, data,
});

function skillFile(dir: string, description: string, extra = ''): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${dir.split('/').pop()}\ndescription: ${description}\n${extra}---\n\n# Body\n`);
}

function collect(): CommandOutput & { text: () => string } {
  let text = '';
  return { out: async (t) => void (text += t), err: () => undefined, progress: () => undefined, text: () => text };
}

/**
 * A home with one project: its own skill `postgres-tests`, a user skill `lint-format`, and two
 * vendored skills worded exactly as the memory is (one linked in from a plugin cache, one that an
 * install manifest names), which must never be suggested.
 */
async function setup(): Promise<{ paths: ReturnType<typeof resolvePaths>; project: string; embedded: { texts: number }; open: () => Promise<ComposedEngine> }> {
  const dir = join(root, String(++n));
  const paths = resolvePaths({ ENGRAM_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude') });
  const project = join(dir, 'repo');
  skillFile(join(project, '.claude', 'skills', 'postgres-tests'), 'runs the postgres database tests in docker');
  skillFile(join(paths.claude, 'skills', 'lint-format'), 'lint and format before review');
  const cached = join(paths.claude, 'plugins', 'cache', 'market', 'db-kit', 'skills', 'docker-postgres');
  skillFile(cached, 'use docker for the postgres database tests');
  symlinkSync(cached, join(paths.claude, 'skills', 'docker-postgres'));
  skillFile(join(paths.claude, 'skills', 'postgres-docker'), 'use docker for the postgres database tests');
  writeFileSync(join(paths.claude, 'SKILLS.lock'), JSON.stringify({ version: 1, skills: { 'postgres-docker': { source: 'github' } } }));
  const models = join(dir, 'models');
  writeTinyBertModel(bgeSmallDir(models), 384);
  const model = fastembedEmbedder({ modelsDir: models });
  const embedded = { texts: 0 };
  const embedder: Embedder = { ...model, model: model.model, dimensions: model.dimensions, embed: async (texts, signal) => ((embedded.texts += texts.length), model.embed(texts, signal)), close: () => model.close() };
  const open = () => openEngine({ paths, clock: fixedClock(new Date('2026-11-02T00:00:00.000Z')), skills: { embedder } });
  return { paths, project, embedded, open };
}

const view = (paths: { views: string }, project: string) => JSON.parse(readFileSync(join(paths.views, 'skills', `${projectSlug(project)}.json`), 'utf8'));

describe('memory → skill suggestions', () => {
  it('a memory reinforced into eligibility is suggested for the matching own skill, never a vendored one; accept and decline stop it, through a rebuild', async () => {
    const { paths, project, embedded, open } = await setup();
    const engine = await open();
    try {
      await engine.record([
        event('SessionStarted', project, { source: 'startup' }),
        event('MemoryProposed', project, {
          memoryId: 'pg', origin: 'correction', scope: 'project', name: 'Postgres tests in docker', description: 'use docker for the postgres database tests',
          type: 'feedback', body: 'use docker for the postgres database tests\n', status: 'active', confidence: 0.6,
        }),
        event('MemoryProposed', project, {
          memoryId: 'tabs', origin: 'user', scope: 'project', name: 'Tabs in makefiles', description: 'prefer tabs for makefile indent',
          type: 'feedback', tier: 'preference', body: 'tabs\n', status: 'active', confidence: 0.9,
        }),
      ]);
      await engine.drain();
      const scanned = (await collectLog(engine)).filter((e) => e.type === 'SkillsScanned');
      const names = scanned.flatMap((e) => (e.data as { skills: Array<{ name: string }> }).skills.map((s) => s.name)).sort();
      expect(names).toEqual(['lint-format', 'postgres-tests']);
      // Confidence 0.6 and never reinforced: not yet eligible.
      expect(view(paths, project).suggestions.map((s: { memoryId: string }) => s.memoryId)).toEqual(['tabs']);

      await engine.record([event('MemoryReinforced', project, { memoryId: 'pg', by: 'correction' }, '2026-11-01T10:00:00.000Z')]);
      await engine.drain();
      const suggestions = view(paths, project).suggestions;
      expect(suggestions).toEqual([
        expect.objectContaining({ memoryId: 'pg', verdict: 'update', skill: { name: 'postgres-tests', scope: 'project' } }),
        expect.objectContaining({ memoryId: 'tabs', verdict: 'new' }),
      ]);
      expect(suggestions[0].cosine).toBeGreaterThanOrEqual(SKILL_MATCH_THRESHOLD);
      expect(suggestions[1].cosine).toBeLessThan(SKILL_MATCH_THRESHOLD);
      expect(JSON.stringify(view(paths, project))).not.toMatch(/docker-postgres|postgres-docker/);
      expect(view(paths, project).notes).toEqual([
        '- Skill suggestions: 2 memories ("Postgres tests in docker", "Tabs in makefiles"): 1 could update "postgres-tests", 1 could become a new skill; `engram skills suggest` lists them.',
      ]);
      const report = collect();
      await skillsSuggest.run(engine, { project, json: false }, report);
      expect(report.text()).toContain('→ update the project skill "postgres-tests"');

      // The verdicts are kept per descriptions: another round embeds nothing.
      const texts = embedded.texts;
      expect(texts).toBeGreaterThan(0);
      const before = (await collectLog(engine)).length;
      await engine.drain();
      expect((await collectLog(engine)).length).toBe(before);
      expect(embedded.texts).toBe(texts);

      await skillsAccept.run(engine, { memory: 'Postgres tests in docker', project, skill: 'postgres-tests' }, collect());
      await skillsDecline.run(engine, { memory: 'tabs', project }, collect());
      await engine.drain();
      expect(view(paths, project).suggestions).toEqual([]);
      expect(view(paths, project).notes).toEqual([]);
      const memoryDir = join(paths.claude, projectMemoryDir(project));
      expect(readFileSync(join(memoryDir, 'postgres-tests-in-docker.md'), 'utf8')).toMatch(/implemented_in: postgres-tests/);
      expect(readFileSync(join(memoryDir, 'tabs-in-makefiles.md'), 'utf8')).toMatch(/implemented_in: declined/);
      // The memory stays, indexed and recalled as before.
      expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('postgres-tests-in-docker.md');
      expect(readFileSync(join(paths.views, 'recall', `${projectSlug(project)}.bm25`), 'utf8')).toContain('Postgres tests in docker');

      const files = () => ({ ...walkFiles(join(paths.views, 'skills')), ...walkFiles(memoryDir) });
      const incremental = files();
      await engine.runner.rebuild();
      expect(files()).toEqual(incremental);
    } finally {
      await engine.close();
    }
  });

  it('a rebuild writes the skill suggestions byte for byte as the incremental run did, from a fresh state too', async () => {
    const { paths, project, open } = await setup();
    let incremental: Record<string, string> = {};
    const engine = await open();
    try {
      await engine.record([event('SessionStarted', project, { source: 'startup' })]);
      for (let i = 0; i < 3; i++) {
        await engine.record([
          event('MemoryProposed', project, {
            memoryId: `m${i}`, origin: 'user', scope: i === 2 ? 'global' : 'project', name: `Rule ${i}`, description: ['use docker for the postgres tests', 'lint and format before review', 'prefer spaces'][i],
            type: 'feedback', body: 'x\n', status: 'active', confidence: 0.8,
          }),
          event('ToolCalled', project, { tool: 'Skill', input: 'postgres-tests', ok: true }),
        ]);
        await engine.drain();
      }
      incremental = walkFiles(join(paths.views, 'skills'));
      expect(Object.keys(incremental).sort()).toEqual([`skills/${projectSlug(project)}.json`, 'skills/global.json']);
      await engine.runner.rebuild();
      expect(walkFiles(join(paths.views, 'skills'))).toEqual(incremental);
    } finally {
      await engine.close();
    }
    rmSync(join(paths.views, 'skills'), { recursive: true });
    rmSync(paths.state, { recursive: true });
    const fresh = await open();
    try {
      await fresh.runner.catchUp();
    } finally {
      await fresh.close();
    }
    expect(walkFiles(join(paths.views, 'skills'))).toEqual(incremental);
  });
});

describe('implemented_in written by hand', () => {
  it('stops the suggestion like an accept, and the edited file is kept byte for byte, through a rebuild', async () => {
    const { paths, project, open } = await setup();
    const engine = await open();
    try {
      await engine.record([
        event('SessionStarted', project, { source: 'startup' }),
        event('MemoryProposed', project, {
          memoryId: 'fmt', origin: 'user', scope: 'project', name: 'Format before review', description: 'lint and format before review',
          type: 'feedback', body: 'x\n', status: 'active', confidence: 0.9,
        }),
      ]);
      await engine.drain();
      expect(view(paths, project).suggestions).toEqual([expect.objectContaining({ memoryId: 'fmt', verdict: 'update', skill: { name: 'lint-format', scope: 'user' } })]);
      const file = join(paths.claude, projectMemoryDir(project), 'format-before-review.md');
      // Where engram itself writes the field: a known field elsewhere would be written back in its place.
      const edited = readFileSync(file, 'utf8').replace('  created:', '  implemented_in: lint-format\n  created:');
      writeFileSync(file, edited);
      // A session start has the reconciler look at the project's memory directory.
      await engine.record([event('SessionStarted', project, { source: 'resume' })]);
      await engine.drain();
      expect(view(paths, project).suggestions).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe(edited);
      await engine.runner.rebuild();
      expect(readFileSync(file, 'utf8')).toBe(edited);
      expect(view(paths, project).suggestions).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

describe('skills/memory/SKILL.md', () => {
  it('names only commands the CLI has', () => {
    const skill = readFileSync(join(import.meta.dirname, '..', 'skills', 'memory', 'SKILL.md'), 'utf8');
    const usage = readFileSync(join(import.meta.dirname, '..', 'src', 'cli', 'usage.ts'), 'utf8');
    const commands = [...skill.matchAll(/`engram ([a-z]+)(?: ([a-z]+))?/g)].map((m) => [m[1]!, m[2]]);
    expect(commands.length).toBeGreaterThan(10);
    for (const [command, sub] of commands) {
      expect(usage, `engram ${command}`).toContain(`engram ${command}`);
      if (sub && sub === sub.toLowerCase() && !['TEXT'].includes(sub)) {
        const line = usage.split('\n').filter((l) => l.includes(`engram ${command} `)).join(' ');
        expect(line, `engram ${command} ${sub}`).toMatch(new RegExp(`\\b${sub}\\b`));
      }
    }
  });
});

async function collectLog(engine: ComposedEngine): Promise<Envelope[]> {
  const events: Envelope[] = [];
  for await (const batch of engine.log.read()) events.push(...batch);
  return events;
}
