import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { fold } from '../src/projections/projector.js';
import { PROVENANCE_PAGE_SIZE, provenanceHeadKey, provenanceProjector } from '../src/projections/provenance/provenance.js';
import { memoryProvenance } from '../src/commands/memory-provenance.js';
import { openEngine } from '../src/composition/open-engine.js';
import { askWorker } from '../src/socket/worker-client.js';
import { startSocketServer } from '../src/socket/socket-server.js';
import type { Response } from '../src/socket/socket-protocol.js';
import type { DomainEvent } from '../src/events/catalog.js';
import { useTempHomes } from './support/temp-home.js';

const project = '/home/dev/src/shop';
const newHome = useTempHomes();

let n = 0;
function event(type: string, data: unknown, extra: Partial<Envelope> = {}): Envelope {
  n++;
  return { id: `prov-test-${String(n).padStart(6, '0')}`, type, schemaVersion: 1, ts: `2026-11-01T10:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`, session: '', project, data, ...extra };
}

const proposal = (memoryId: string, name: string, description: string, origin = 'user', status = 'active') => ({
  memoryId, origin, scope: 'project', name, description, type: 'feedback', body: `${description}\n`, status, confidence: 0.5,
});

describe('provenance', () => {
  it('lists every event that made or changed a memory, with its seq, session and what it did, the events read by seq', async () => {
    const h = newHome();
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(new Date('2026-11-05T00:00:00.000Z')), maintainEveryMs: Number.POSITIVE_INFINITY });
    try {
      await engine.record([
        event('MemoryProposed', proposal('m1', 'Use pnpm', 'use pnpm not npm for installs')),
        event('MemoryProposed', proposal('other', 'Money in cents', 'amounts are integer cents')),
        // Said again by the agent in a session: the same memory, reinforced, not a second one.
        event('MemoryProposed', proposal('agent-1', 'pnpm please', 'use pnpm not npm for installs', 'agent'), { session: 'sess-7' }),
        // A correction typed in a prompt that says the same again.
        event('PromptSubmitted', { prompt: 'no, I told you: use pnpm not npm for installs' }, { session: 'sess-8' }),
        event('MemoryPinned', { memoryId: 'm1' }),
        event('MemoryEdited', { memoryId: 'm1', by: 'hand', name: 'Use pnpm', description: 'use pnpm not npm for installs', type: 'feedback', body: 'pnpm, always.\n' }),
        event('MemoryForgotten', { memoryId: 'm1', reason: 'we moved to bun' }),
        event('MemoryRestored', { memoryId: 'm1' }),
        event('MemoryUnpinned', { memoryId: 'other' }),
      ]);
      const seen = await memoryProvenance(engine, 'use pnpm', { project });
      expect(seen.memory).toMatchObject({ id: 'm1', name: 'Use pnpm', status: 'active', body: 'pnpm, always.\n' });
      const steps = seen.steps.map((s) => [s.seq, s.action, s.by, s.session, s.detail]);
      expect(steps[0]).toEqual([1, 'created', 'user', '', 'active, confidence 0.5']);
      expect(steps[1]).toEqual([3, 'reinforced', 'agent', 'sess-7', 'confidence 0.6']);
      expect(steps.map((s) => s[1])).toContain('pinned');
      expect(steps.slice(-3).map((s) => s[1])).toEqual(['edited', 'forgotten', 'restored']);
      expect(seen.steps.find((s) => s.action === 'forgotten')?.detail).toBe('we moved to bun');
      // The step's event is the stored one, read by its seq: the reinforcing proposal says who and what.
      expect(seen.steps[1]!.event).toMatchObject({ id: 'prov-test-000003', type: 'MemoryProposed', session: 'sess-7', data: { origin: 'agent', name: 'pnpm please' } });
      const correction = seen.steps.find((s) => s.type === 'PromptSubmitted');
      expect(correction?.action, JSON.stringify(steps)).toBe('reinforced');
      expect(correction?.by).toBe('correction');
      expect(seen.total).toBe(seen.steps.length);
      // The other memory's history holds only its own events (an unpin of an unpinned memory changed nothing).
      expect((await memoryProvenance(engine, 'other')).steps.map((s) => s.seq)).toEqual([2]);
      expect((await memoryProvenance(engine, 'use pnpm', { limit: 2, events: false })).steps.map((s) => [s.action, s.event])).toEqual([['forgotten', undefined], ['restored', undefined]]);
      await expect(memoryProvenance(engine, 'nothing like it')).rejects.toMatchObject({ code: 'USAGE' });
    } finally {
      await engine.close();
    }
  });

  it('names the distillation a memory came from and the one that corroborated it, with the LLM\'s answer; a supersession', async () => {
    const h = newHome();
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(new Date('2026-11-05T00:00:00.000Z')), maintainEveryMs: Number.POSITIVE_INFINITY });
    try {
      const pnpm = { type: 'feedback', name: 'Install with pnpm', description: 'use pnpm, not npm, to install packages in this repo', body: 'npm breaks the lockfile.' };
      const answer = (name: string) => ({ episode: { name, description: `what happened: ${name}`, body: `${name}, in detail.` }, candidates: [pnpm] });
      const completed = (session: string, name: string) => event('DistillCompleted', { upToSeq: 1, attempt: 1, via: 'llm', raw: JSON.stringify(answer(name)), answer: answer(name), notes: [] }, { session });
      await engine.record([completed('s-one', 'Fixed the refund bug'), completed('s-two', 'Moved CI to arm')]);
      const seen = await memoryProvenance(engine, 'Install with pnpm', { project });
      expect(seen.memory.status).toBe('active');
      expect(seen.steps.map((s) => [s.action, s.by, s.session, s.type])).toEqual([
        ['created', 'distiller', 's-one', 'DistillCompleted'],
        ['reinforced', 'distiller', 's-two', 'DistillCompleted'],
      ]);
      expect(seen.steps[0]!.detail).toBe('provisional, confidence 0.3');
      // The step's event is the recorded answer: the LLM's raw text and what was checked of it.
      expect(seen.steps[0]!.event?.data).toMatchObject({ via: 'llm', raw: expect.stringContaining('Install with pnpm'), answer: { candidates: [pnpm] } });
      await engine.record([
        event('MemoryProposed', proposal('new', 'Install with bun', 'use bun to install packages', 'user')),
        event('MemorySuperseded', { memoryId: seen.memory.id, by: 'new' }),
      ]);
      expect((await memoryProvenance(engine, 'Install with pnpm')).steps.at(-1)).toMatchObject({ action: 'superseded', detail: 'by Install with bun', type: 'MemorySuperseded' });
    } finally {
      await engine.close();
    }
  });

  it('appends a page at a time, recorded twice is stored once, and a rebuild gives the same rows', async () => {
    const h = newHome();
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(new Date('2026-11-05T00:00:00.000Z')), maintainEveryMs: Number.POSITIVE_INFINITY });
    try {
      const events = [event('MemoryProposed', proposal('m2', 'Run tests', 'run the tests before each push'))];
      for (let i = 0; i < PROVENANCE_PAGE_SIZE * 2 + 3; i++) events.push(event('MemoryReinforced', { memoryId: 'm2', by: 'distiller' }));
      await engine.record(events.slice(0, 40));
      // A crash between append and acknowledgement sends some again: the log stores them once.
      await engine.record(events.slice(30));
      const all = await memoryProvenance(engine, 'm2', { events: false });
      expect(all.total).toBe(events.length);
      expect(all.steps.map((s) => s.seq)).toEqual(events.map((_, i) => i + 1));
      expect(all.steps.at(-1)).toMatchObject({ action: 'reinforced', by: 'distiller', detail: 'confidence 1' });
      const rows = async () => {
        const found: Array<[string, unknown]> = [];
        for await (const entry of engine.runner.rowsOf('provenance').entries('provenance')) found.push(entry);
        return found;
      };
      const before = await rows();
      expect(before.length).toBe(1 + 3);
      await engine.runner.rebuild({ only: ['provenance'] });
      expect(await rows()).toEqual(before);
      // The same events folded in memory give the same head as the lane committed.
      const stored: DomainEvent[] = [];
      for await (const batch of engine.log.read()) for (const e of batch) stored.push(engine.catalog.readStored(e));
      expect(fold(provenanceProjector, stored).rows.get(provenanceHeadKey('m2'))).toEqual({ memoryId: 'm2', steps: events.length });
    } finally {
      await engine.close();
    }
  });

  it('is served by the worker\'s socket op, a memory it does not know answered with a clear error', async () => {
    const h = newHome();
    const engine = await openEngine({ paths: h.paths, clock: fixedClock(new Date('2026-11-05T00:00:00.000Z')), maintainEveryMs: Number.POSITIVE_INFINITY });
    const server = await startSocketServer({ path: h.paths.socket, engine, commands: new Map(), startedAt: 'now', onActivity: () => undefined, onStop: () => undefined, log: () => undefined });
    try {
      await engine.record([event('MemoryProposed', proposal('m3', 'Ship on Fridays', 'never ship on fridays'))]);
      const ask = async (query: string) => {
        const answers: Response[] = [];
        await askWorker(h.paths, { op: 'provenance', query }, (r) => answers.push(r));
        return answers;
      };
      const [answer, exit] = await ask('ship-on-fridays.md');
      expect(answer).toMatchObject({ t: 'provenance', provenance: { memory: { name: 'Ship on Fridays' }, total: 1, steps: [{ action: 'created', event: { type: 'MemoryProposed' } }] } });
      expect(exit).toEqual({ t: 'exit', code: 0 });
      expect(await ask('nope')).toEqual([{ t: 'err', text: expect.stringContaining('no memory is called "nope"') }, { t: 'exit', code: 2 }]);
    } finally {
      await server.close(100);
      await engine.close();
    }
  });
});
