import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/seeded-random.js';
import { isEngramError } from '../src/errors.js';
import { responseByHand } from '../src/socket/response-by-hand.js';
import { responseSchema, type Response } from '../src/socket/socket-protocol.js';
import { askWorker } from '../src/socket/worker-client.js';
import { useTempHomes, type TempHome } from './support/temp-home.js';

// askWorker, the worker's one client, checks the common answers by hand (response-by-hand.ts)
// and leaves every other line to responseSchema, loaded only then: the bin's front end asks
// through it without loading zod (issue 22).

const COMMON: unknown[] = [
  { t: 'out', text: 'events: 3\n' },
  { t: 'err', text: 'warned\n' },
  { t: 'out', text: '' },
  { t: 'progress', done: 1, total: 2 },
  { t: 'progress', done: 0.5, total: 2, unit: 'bytes' },
  { t: 'progress', done: 7, total: 9, unit: 'events' },
  { t: 'exit', code: 0 },
  { t: 'exit', code: -1 },
  { t: 'pong', pid: 12, head: 0, startedAt: '2026-01-01T00:00:00.000Z' },
  { t: 'pong', pid: 12, head: 40, startedAt: 'x', build: '0.1.0+1' },
  { t: 'out', text: 'x', extra: 'dropped, as the schema drops it' },
];

const OUT_OF_SHAPE: unknown[] = [
  null, 3, 'out', [], [{ t: 'out', text: 'a' }], {},
  { t: 'out' }, { t: 'out', text: 3 }, { t: 'err', text: null },
  { t: 'exit' }, { t: 'exit', code: 1.5 }, { t: 'exit', code: '0' }, { t: 'exit', code: 2 ** 60 },
  { t: 'progress', done: 1 }, { t: 'progress', done: '1', total: 2 }, { t: 'progress', done: 1, total: 2, unit: 'lines' }, { t: 'progress', done: 1, total: 2, unit: null },
  { t: 'pong', pid: 1, head: 2 }, { t: 'pong', pid: 1.5, head: 2, startedAt: 'x' }, { t: 'pong', pid: 1, head: 2, startedAt: 'x', build: 'b'.repeat(101) }, { t: 'pong', pid: 1, head: 2, startedAt: 'x', build: 7 },
  { t: 'OUT', text: 'a' }, { t: 'recalled' }, { t: 'ui', url: 3 },
];

/** The same answers with one field taken away, changed or added: what a torn or foreign line looks like. */
function mutations(count: number): unknown[] {
  const random = seededRandom(22);
  const values: unknown[] = [undefined, null, 0, -3, 1.25, 2 ** 53, 'x', '', true, [], {}, 'events', 'bytes', 'out', 'exit', 'pong', 'b'.repeat(101)];
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const base = { ...(COMMON[Math.floor(random() * COMMON.length)] as Record<string, unknown>) };
    const keys = [...Object.keys(base), 'build', 'unit', 'code', 'text', 't'];
    const key = keys[Math.floor(random() * keys.length)]!;
    const value = values[Math.floor(random() * values.length)];
    if (value === undefined) delete base[key];
    else base[key] = value;
    out.push(JSON.parse(JSON.stringify(base)));
  }
  return out;
}

describe('the hand check of the worker\'s answers', () => {
  it('passes the common answers, each as responseSchema reads it', () => {
    for (const line of COMMON) expect(responseByHand(line), JSON.stringify(line)).toEqual(responseSchema.parse(line));
  });

  it('never passes what responseSchema refuses, and reads whatever it passes as the schema does', () => {
    for (const line of [...OUT_OF_SHAPE, ...mutations(1000)]) {
      const byHand = responseByHand(line);
      const bySchema = responseSchema.safeParse(line);
      if (byHand !== undefined) expect(bySchema.success && bySchema.data, JSON.stringify(line)).toEqual(byHand);
    }
    for (const line of OUT_OF_SHAPE) expect(responseByHand(line), JSON.stringify(line)).toBeUndefined();
  });
});

describe('askWorker', () => {
  const home = useTempHomes();
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** A worker that answers every connection with these bytes, then closes it. */
  async function worker(h: TempHome, answer: string): Promise<void> {
    mkdirSync(h.paths.socketDir, { recursive: true, mode: 0o700 });
    server = createServer((conn) => conn.once('data', () => conn.end(answer)));
    await new Promise<void>((resolve) => server!.listen(h.paths.socket, resolve));
  }

  async function ask(h: TempHome): Promise<{ responses: Response[]; error: unknown }> {
    const responses: Response[] = [];
    try {
      await askWorker(h.paths, { op: 'ping' }, (response) => responses.push(response));
      return { responses, error: undefined };
    } catch (error) {
      return { responses, error };
    }
  }

  const found = { t: 'found', hits: [], problems: ['one'] };
  const lines = (...xs: unknown[]) => xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n';

  it('hands over the answers in the order they came, the ones only the schema reads included', async () => {
    const h = home();
    await worker(h, lines({ t: 'out', text: 'a' }, found, { t: 'out', text: 'b', extra: 1 }, { t: 'exit', code: 3 }));
    expect(await ask(h)).toEqual({ responses: [{ t: 'out', text: 'a' }, found, { t: 'out', text: 'b' }, { t: 'exit', code: 3 }], error: undefined });
  });

  it('fails with the schema\'s verdict on a line out of shape, after handing over what came before it', async () => {
    const h = home();
    await worker(h, lines({ t: 'out', text: 'a' }, { t: 'exit', code: 1.5 }));
    const { responses, error } = await ask(h);
    expect(responses).toEqual([{ t: 'out', text: 'a' }]);
    expect(isEngramError(error, 'WORKER_PROTOCOL')).toBe(true);
    const verdict = responseSchema.safeParse({ t: 'exit', code: 1.5 });
    expect((error as Error).message).toBe(`the worker answered something unexpected: unexpected message (${verdict.error!.issues[0]!.message})`);
  });

  it('reports the last bad line, in turn, when a line the schema judges comes before it', async () => {
    const h = home();
    await worker(h, lines(found, { t: 'nonsense' }, 'not json'));
    const { responses, error } = await ask(h);
    expect(responses).toEqual([found]);
    expect((error as Error).message).toBe('the worker answered something unexpected: a line of 8 characters is not JSON');
  });

  it('says no worker answered when it closes without a word', async () => {
    const h = home();
    await worker(h, '');
    expect(isEngramError((await ask(h)).error, 'WORKER_UNREACHABLE')).toBe(true);
  });
});
