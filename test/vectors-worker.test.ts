import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { bgeSmallDir } from '../src/recall/embedders/fastembed-embedder.js';
import { searchVectors } from '../src/recall/search-vectors.js';
import { openEngine } from '../src/composition/open-engine.js';
import { USE_LITE_MODEL } from '../src/recall/embedders/use-lite-embedder.js';
import { VectorStore } from '../src/indexes/vector-store.js';
import { runHookHere } from './support/hook-here.js';
import { cliHere, drain, type TempHome, useTempHomes } from './support/temp-home.js';
import { writeTinyBertModel } from './support/tiny-bert-model.js';

const common = { session_id: 'sess-vec', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app' };
const homes = useTempHomes({ inMemory: true });
// The prompts reach the spool through the prompt hook's bundle run in this process: what is under
// test is the engram process's vectors, not the hook's (its process is test/hooks.test.ts's).
const spooled = (h: TempHome) => readdirSync(h.paths.spoolNew).length;

describe('the vectors projection in the engram process', () => {
  // Three loads of the model (the drain, the rebuild, the engine): past 60 s at load 20.
  it('embeds the lessons a drain makes, with the default model, and rebuilds to the same rows', { timeout: 180_000 }, async () => {
    const h = homes({ ENGRAM_EMBEDDER: '' });
    for (const prompt of ['From now on, always run the tests with pnpm test, never npm test.', 'Remember that the staging database is reset every night at 2am.']) {
      await runHookHere('UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt }, h.env);
    }
    expect(spooled(h)).toBe(2);
    await drain(h.env);
    const store = new VectorStore({ dir: h.paths.vectors, model: USE_LITE_MODEL, dimensions: 512 });
    const rows = await store.rows();
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.every((row) => row.project === '' || row.project === common.cwd)).toBe(true);

    const rebuilt = await cliHere(['rebuild', '--only', 'vectors'], h.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(await store.rows()).toEqual(rows);
    await store.close();

    // What recall gets from an engine: the table and the model, for searchVectors.
    const engine = await openEngine({ paths: h.paths, clock: systemClock, embedder: 'use-lite' });
    try {
      const pnpm = rows.find((row) => /pnpm/i.test(row.name));
      expect(pnpm).toBeDefined();
      const hits = await searchVectors(engine.services.vectors!, 'which package manager runs the test suite?', { project: common.cwd, limit: 5 });
      expect(hits[0]!.id).toBe(pnpm!.id);
    } finally {
      await engine.close();
    }
  });

  it('refuses an unknown ENGRAM_EMBEDDER with the choices, and makes no vectors when it is off', async () => {
    const wrong = homes({ ENGRAM_EMBEDDER: 'gpt' });
    const result = await cliHere(['worker', '--drain'], wrong.env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('use-lite, bge-small, off');

    const off = homes();
    await runHookHere('UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'From now on, always run the tests with pnpm test.' }, off.env);
    expect(spooled(off)).toBe(1);
    await drain(off.env);
    expect(await new VectorStore({ dir: off.paths.vectors, model: USE_LITE_MODEL, dimensions: 512 }).count()).toBe(0);
  });

  it('drains when the chosen model cannot load, and doctor names the vectors rows it could not embed and why', async () => {
    const h = homes({ ENGRAM_EMBEDDER: 'bge-small' });
    // A model folder without its model: fastembed fails to load it, and never goes to the network.
    writeTinyBertModel(bgeSmallDir(h.paths.models), 384);
    unlinkSync(join(bgeSmallDir(h.paths.models), 'model_optimized.onnx'));
    await runHookHere('UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'From now on, always run the tests with pnpm test, never npm test.' }, h.env);
    expect(spooled(h)).toBe(1);
    await drain(h.env);
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout + doctor.stderr).toContain('vectors');
    expect(doctor.stdout + doctor.stderr).toContain('EMBEDDER_UNAVAILABLE');
  });
});

