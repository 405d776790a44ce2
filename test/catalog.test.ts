import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EventCatalog, knownDefinitions } from '../src/events/catalog.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { defineEvent } from '../src/events/define-event.js';
import { defineUpcaster } from '../src/events/define-upcaster.js';
import { isEngramError } from '../src/errors.js';

const base = { id: 'evt-000000001', ts: '2026-11-01T10:00:00.000Z', session: 's', project: '/p', seq: 1 };

describe('the event catalog', () => {
  it('declares each event type once, with past-tense names', () => {
    const types = knownDefinitions.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    for (const type of types) expect(type).toMatch(/^[A-Z][A-Za-z]+(ed|Started|Stopped|Forgotten)$/);
  });

  it('reads a current event as it is', () => {
    const event = defaultCatalog().readStored({ ...base, type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Bash', input: 'ls', ok: true } });
    expect(event.data).toEqual({ tool: 'Bash', input: 'ls', ok: true });
  });

  it('lifts a PromptSubmitted of schemaVersion 1 through its upcaster', () => {
    const event = defaultCatalog().readStored({ ...base, type: 'PromptSubmitted', schemaVersion: 1, data: { prompt: 'fix the build' } });
    expect(event.schemaVersion).toBe(2);
    expect(event.data).toEqual({ prompt: 'fix the build', chars: 13, truncated: false });
  });

  it('lifts a TurnStopped of schemaVersion 1, which kept no answer, to an empty one', () => {
    const event = defaultCatalog().readStored({ ...base, type: 'TurnStopped', schemaVersion: 1, data: { stopHookActive: false, answerChars: 311 } });
    expect(event.schemaVersion).toBe(2);
    expect(event.data).toEqual({ stopHookActive: false, answerChars: 311, answer: '' });
  });

  it('refuses data that does not match, an unknown type, and a version from the future', () => {
    const catalog = defaultCatalog();
    const wrong = () => catalog.readStored({ ...base, type: 'ToolCalled', schemaVersion: 1, data: { tool: 3 } });
    expect(wrong).toThrow(expect.objectContaining({ code: 'EVENT_INVALID' }));
    const unknown = () => catalog.readStored({ ...base, type: 'ToolTeleported', schemaVersion: 1, data: {} });
    expect(unknown).toThrow(expect.objectContaining({ code: 'EVENT_TYPE_UNKNOWN' }));
    const future = () => catalog.readStored({ ...base, type: 'ToolCalled', schemaVersion: 9, data: {} });
    expect(future).toThrow(expect.objectContaining({ code: 'EVENT_INVALID' }));
  });

  it('chains upcasters v1 → v2 → v3 and says which one is missing', () => {
    const v3 = defineEvent({ type: 'ThingHappened', schemaVersion: 3, summary: 'test', data: () => z.object({ name: z.string(), size: z.number(), unit: z.string() }) });
    const oneToTwo = defineUpcaster({ id: 't1', type: 'ThingHappened', fromSchemaVersion: 1, from: z.object({ name: z.string() }), upcast: (d) => ({ ...d, size: 0 }) });
    const twoToThree = defineUpcaster({ id: 't2', type: 'ThingHappened', fromSchemaVersion: 2, from: z.object({ name: z.string(), size: z.number() }), upcast: (d) => ({ ...d, unit: 'B' }) });
    const catalog = new EventCatalog([v3], [oneToTwo, twoToThree]);
    expect(catalog.read({ ...base, type: 'ThingHappened', schemaVersion: 1, data: { name: 'x' } }).data).toEqual({ name: 'x', size: 0, unit: 'B' });
    const gap = new EventCatalog([v3], [twoToThree]);
    let error: unknown;
    try {
      gap.read({ ...base, type: 'ThingHappened', schemaVersion: 1, data: { name: 'x' } });
    } catch (err) {
      error = err;
    }
    expect(isEngramError(error, 'UPCASTER_MISSING')).toBe(true);
  });
});
