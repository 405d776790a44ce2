import { describe, expect, it } from 'vitest';
import { recallFirst } from '../src/worker/recall-first.js';

// The worker's ingest rounds wait while a prompt's recall is being answered (recall-first.ts).
describe('recallFirst', () => {
  it('lets a round run at once when nothing is being answered', () => {
    const first = recallFirst({ maxHoldMs: 10_000 });
    expect(first.hold(() => undefined)).toBe(false);
  });

  it('holds a round while answers are in flight and runs it once, after the last is answered', async () => {
    const first = recallFirst({ maxHoldMs: 10_000 });
    const order: string[] = [];
    let answerA!: (v: string) => void;
    let answerB!: (v: string) => void;
    const a = first.answer(() => new Promise<string>((resolve) => (answerA = resolve)));
    const b = first.answer(() => new Promise<string>((resolve) => (answerB = resolve)));
    const ran = new Promise<void>((resolve) => {
      expect(first.hold(() => (order.push('round'), resolve()))).toBe(true);
      // Asked again meanwhile: still one round.
      expect(first.hold(() => (order.push('round'), resolve()))).toBe(true);
    });
    answerA('a');
    order.push(`answered ${await a}`);
    answerB('b');
    order.push(`answered ${await b}`);
    await ran;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['answered a', 'answered b', 'round']);
    expect(first.hold(() => undefined)).toBe(false);
  });

  it('runs a held round after maxHoldMs even when an answer never comes, and a failed answer releases it too', async () => {
    const first = recallFirst({ maxHoldMs: 20 });
    void first.answer(() => new Promise<never>(() => undefined));
    await new Promise<void>((resolve) => expect(first.hold(resolve)).toBe(true));
    const second = recallFirst({ maxHoldMs: 60_000 });
    const failing = second.answer(() => Promise.reject(new Error('embedder gone')));
    const ran = new Promise<void>((resolve) => expect(second.hold(resolve)).toBe(true));
    await expect(failing).rejects.toThrow('embedder gone');
    await ran;
  });
});
