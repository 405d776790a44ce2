import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { syntheticEvents } from '../bench/synthetic-events.js';
import { readPidFile } from '../src/launch/live-worker.js';
import { lineReader } from '../src/socket/line-reader.js';
import { cliHere, cliPath, drain, useTempHomes } from './support/temp-home.js';
import { processGone, waitUntil } from './support/wait-until.js';

const home = useTempHomes({ inMemory: true });

function reader(maxLineChars: number) {
  const messages: Array<{ text: string }> = [];
  const bad: string[] = [];
  const feed = lineReader(z.object({ text: z.string() }), (m) => messages.push(m), (reason) => bad.push(reason), maxLineChars);
  return { feed, messages, bad };
}

describe('the socket line reader', () => {
  it('decodes a character split across two chunks', () => {
    const { feed, messages, bad } = reader(1000);
    const bytes = Buffer.from(`${JSON.stringify({ text: 'naïve € 😀 日本' })}\n`);
    // Every split point, including inside each multi-byte character.
    for (let cut = 1; cut < bytes.length; cut++) {
      feed(bytes.subarray(0, cut));
      feed(bytes.subarray(cut));
    }
    expect(bad).toEqual([]);
    expect(messages.length).toBe(bytes.length - 1);
    expect(new Set(messages.map((m) => m.text))).toEqual(new Set(['naïve € 😀 日本']));
  });

  it('rejects a line over its limit without holding it, and reads the lines after it', () => {
    const { feed, messages, bad } = reader(1000);
    for (let i = 0; i < 1000; i++) feed('x'.repeat(10_000));
    feed(`\n${JSON.stringify({ text: 'after' })}\n`);
    feed(`${JSON.stringify({ text: 'y'.repeat(2000) })}\n`);
    expect(messages).toEqual([{ text: 'after' }]);
    expect(bad).toEqual(['a line longer than 1000 characters', 'a line longer than 1000 characters']);
  });
});

describe('stopping the worker', () => {
  it('does not wait on an idle connection or a reader that stopped reading, and says "stopped" only once it has', async () => {
    const h = home();
    mkdirSync(h.paths.spoolNew, { recursive: true });
    // Enough log that a dump cannot fit in the pipe and socket buffers between worker and reader.
    syntheticEvents({ sessions: 40, eventsPerSession: 100, seed: 3 }).forEach((event, i) =>
      writeFileSync(join(h.paths.spoolNew, `${String(1_700_000_000_000_000 + i)}-1-00000000.json`), JSON.stringify(event)),
    );
    await drain(h.env);
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    const worker = readPidFile(h.paths.pidFile)!;
    const idle = connect(h.paths.socket);
    idle.on('error', () => undefined);
    await new Promise((resolve) => idle.once('connect', resolve));
    // `engram log dump | less`, with less waiting for a key: nothing reads the pipe.
    const dump = spawn(process.execPath, [cliPath, 'log', 'dump'], { env: h.env, stdio: ['ignore', 'pipe', 'pipe'] });
    dump.stdout.pause();
    try {
      expect(await waitUntil(() => dump.stdout.readableLength > 0)).toBe(true);
      const stop = await cliHere(['worker', 'stop'], h.env);
      expect(stop).toMatchObject({ code: 0, stdout: `stopped worker ${worker.pid}\n` });
      expect(processGone(worker.pid)).toBe(true);
    } finally {
      dump.kill();
      idle.destroy();
    }
  });

  it('exits 1 and says so when the worker has not stopped in time', async () => {
    const h = home();
    expect((await cliHere(['worker', '--detach'], h.env)).code).toBe(0);
    const worker = readPidFile(h.paths.pidFile)!;
    process.kill(worker.pid, 'SIGSTOP');
    try {
      const stop = await cliHere(['worker', 'stop', '--timeout', '1'], h.env);
      expect(stop.code).toBe(1);
      expect(stop.stdout).toBe('');
      expect(stop.stderr).toContain(`engram: worker ${worker.pid} has not stopped after 1 s`);
      expect(processGone(worker.pid)).toBe(false);
    } finally {
      process.kill(worker.pid, 'SIGCONT');
    }
    // Once it runs again it reads the stop it was sent, and stops.
    expect(await waitUntil(() => processGone(worker.pid))).toBe(true);
    expect((await cliHere(['worker', 'stop'], h.env)).stdout).toBe('not running\n');
  });
});
