import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { projectMemoryDir } from '../src/paths.js';
import { openEngine, type ComposedEngine } from '../src/composition/open-engine.js';
import { skillsFromEnv } from '../src/reactors/skills-from-env.js';
import { repoRoot, useTempHomes, walkFiles } from './support/temp-home.js';

const home = useTempHomes();
const NOW = new Date('2026-11-20T12:00:00.000Z');

let seq = 0;
const turn = (project: string): Envelope[] => [
  { id: `evt-audit-${String(++seq).padStart(6, '0')}`, type: 'PromptSubmitted', schemaVersion: 2, ts: '2026-11-20T11:59:00.000Z', session: 'sess-a', project, data: { prompt: 'the ledger stores amounts how? AUDIT-MARKER', chars: 43, truncated: false } },
  { id: `evt-audit-${String(++seq).padStart(6, '0')}`, type: 'TurnStopped', schemaVersion: 2, ts: '2026-11-20T11:59:30.000Z', session: 'sess-a', project, data: { stopHookActive: false, answerChars: 52, answer: 'Amounts in the ledger are integer cents, never floats.' } },
];

const fact = {
  type: 'project',
  name: 'Ledger amounts are integer cents',
  description: 'The ledger stores money as integer cents, never floats',
  body: 'The ledger stores money as integer cents.\nWhy: floats lost cents on refunds.',
};

async function events(engine: ComposedEngine): Promise<Envelope[]> {
  const all: Envelope[] = [];
  for await (const batch of engine.log.read()) all.push(...batch);
  return all;
}

describe('the post-turn audit', () => {
  it('is off by default: a Stop event costs its append and nothing more', async () => {
    const h = home();
    const project = join(h.root, 'repo');
    const calls = join(h.root, 'llm-calls');
    const env = { ...h.env, ENGRAM_LLM_CMD: `${process.execPath} ${join(repoRoot, 'fixtures', 'fake-llm', 'fake-llm.mjs')}`, FAKE_LLM_CALLS: calls };
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(NOW), skills: skillsFromEnv(env, h.paths) });
    try {
      await engine.record(turn(project));
      await engine.drain();
      expect((await events(engine)).map((e) => e.type)).toEqual(['PromptSubmitted', 'TurnStopped']);
      expect(existsSync(calls)).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it('with ENGRAM_AUDIT=1, asks the distiller\'s LLM about the turn: its facts arrive as provisional memories, and no skill file changes', async () => {
    const h = home();
    const project = join(h.root, 'repo');
    const skill = join(h.paths.claude, 'skills', 'ledger', 'SKILL.md');
    mkdirSync(join(skill, '..'), { recursive: true });
    writeFileSync(skill, '---\nname: ledger\ndescription: how the ledger stores amounts\nmetadata:\n  engram: captured\n---\n\nbody\n');
    const skillsBefore = walkFiles(join(h.paths.claude, 'skills'));
    const answers = join(h.root, 'answers.json');
    writeFileSync(answers, JSON.stringify({ 'AUDIT-MARKER': { episode: { name: 'Ledger amounts', description: 'asked how amounts are stored', body: 'x' }, candidates: [fact] } }));
    const prompt = join(h.root, 'last-prompt');
    const env = {
      ...h.env,
      ENGRAM_AUDIT: '1',
      ENGRAM_LLM_CMD: `${process.execPath} ${join(repoRoot, 'fixtures', 'fake-llm', 'fake-llm.mjs')}`,
      FAKE_LLM_ANSWERS: answers,
      FAKE_LLM_LAST_PROMPT: prompt,
    };
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(NOW), skills: skillsFromEnv(env, h.paths) });
    try {
      await engine.record(turn(project));
      await engine.drain();
      const log = await events(engine);
      const [stopped] = log.filter((e) => e.type === 'TurnStopped');
      expect(log.filter((e) => e.type.startsWith('TurnAudit'))).toEqual([
        expect.objectContaining({ type: 'TurnAuditRequested', id: `audit-requested:${stopped!.id}`, data: expect.objectContaining({ prompt: 'the ledger stores amounts how? AUDIT-MARKER', answer: 'Amounts in the ledger are integer cents, never floats.' }) }),
        expect.objectContaining({ type: 'TurnAuditCompleted', id: `audit:${stopped!.id}`, data: expect.objectContaining({ facts: [expect.objectContaining({ name: fact.name })] }) }),
      ]);
      expect(readFileSync(prompt, 'utf8')).toContain('POST-TURN AUDIT');
      const file = readFileSync(join(h.paths.claude, projectMemoryDir(project), 'ledger-amounts-are-integer-cents.md'), 'utf8');
      expect(file).toMatch(/status: provisional/);
      expect(file).toMatch(/confidence: 0\.3/);
      // Provisional: kept out of MEMORY.md until a later session says it again.
      expect(readFileSync(join(h.paths.claude, projectMemoryDir(project), 'MEMORY.md'), 'utf8')).not.toContain('ledger-amounts');
      expect(walkFiles(join(h.paths.claude, 'skills'))).toEqual(skillsBefore);

      // A round done again (the same turn, the cursor lost) stores nothing twice.
      const count = log.length;
      await engine.reactors.runOnce((await import('../src/reactors/turn-audit.js')).turnAuditReactor(skillsFromEnv(env, h.paths).audit!));
      expect((await events(engine)).length).toBe(count);
    } finally {
      await engine.close();
    }
  });
});
