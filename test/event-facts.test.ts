import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents } from '../bench/synthetic-events.js';
import type { DomainEvent } from '../src/events/catalog.js';
import { EventFacts } from '../src/projections/event-facts.js';
import { defineProjector, rowsOnlySink, type Projection } from '../src/projections/projector.js';
import { projectionHarness } from './support/projection-harness.js';

// What several lanes compute from one event (the correction detector, in the memories
// projector that six lanes fold) is computed once: by the runner's own EventFacts, handed to
// each projector through its RowReader, rather than by a memo of the module's (issue 22).
const root = mkdtempSync(join(tmpdir(), 'engram-event-facts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('EventFacts', () => {
  it('computes a fact once per event object and function, nulls included', () => {
    const facts = new EventFacts();
    const calls: string[] = [];
    const a = { id: 'a' };
    const nothing = (event: { id: string }) => (calls.push(`nothing ${event.id}`), null);
    const name = (event: { id: string }) => (calls.push(`name ${event.id}`), event.id.toUpperCase());
    expect([facts.of(a, nothing), facts.of(a, nothing), facts.of(a, name), facts.of(a, name)]).toEqual([null, null, 'A', 'A']);
    // An equal event that is another object is another event to it.
    expect(facts.of({ id: 'a' }, name)).toBe('A');
    expect(calls).toEqual(['nothing a', 'name a', 'name a']);
  });

  it('is the runner\'s, shared by its lanes: two lanes folding the same prompts compute each fact once', async () => {
    const calls = new Map<string, number>();
    const fact = (event: DomainEvent) => {
      calls.set(event.id, (calls.get(event.id) ?? 0) + 1);
      return event.id;
    };
    const lane = (name: string): Projection =>
      ({
        projector: defineProjector<unknown>({
          name,
          projectorVersion: 1,
          handles: ['PromptSubmitted'],
          evolve(state, event) {
            expect(state.facts!.of(event, fact)).toBe(event.id);
            return [];
          },
        }),
        sink: rowsOnlySink,
      }) as Projection;
    const h = await projectionHarness(join(root, 'lanes'), () => [lane('one'), lane('two')]);
    try {
      const events = syntheticEvents({ sessions: 20, eventsPerSession: 30, seed: 22, projects: 2 });
      await h.log.append(events);
      const runner = await h.runner();
      await runner.catchUp();
      const prompts = events.filter((event) => event.type === 'PromptSubmitted').map((event) => event.id);
      expect(prompts.length).toBeGreaterThan(20);
      expect([...calls.keys()].sort()).toEqual([...prompts].sort());
      expect([...calls.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await h.close();
    }
  });
});
