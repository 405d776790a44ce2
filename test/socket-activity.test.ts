import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { fixedClock } from '../src/clock.js';
import { resolvePaths } from '../src/paths.js';
import { defineCommand } from '../src/commands/command.js';
import { openEngine } from '../src/composition/open-engine.js';
import { startSocketServer } from '../src/socket/socket-server.js';
import { askWorker } from '../src/socket/worker-client.js';

it('a command reporting progress keeps the worker active, so a long backfill or rebuild is not stopped for idleness under it', async () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-socket-activity-'));
  const paths = resolvePaths({ ENGRAM_HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'claude') });
  const engine = await openEngine({ paths, clock: fixedClock(new Date('2026-12-01T10:00:00.000Z')) });
  const long = defineCommand({
    name: 'long',
    access: 'read',
    args: z.object({}),
    async run(_engine, _args, output) {
      for (let done = 1; done <= 3; done++) output.progress(done, 3);
      return 0;
    },
  });
  let activity = 0;
  const server = await startSocketServer({
    path: paths.socket, engine, commands: new Map([['long', long]]), startedAt: '', onActivity: () => activity++, onStop: () => undefined, log: () => undefined,
  });
  try {
    let code: number | undefined;
    await askWorker(paths, { op: 'command', name: 'long', args: {}, tty: false }, (response) => {
      if (response.t === 'exit') code = response.code;
    });
    expect(code).toBe(0);
    // The request itself, then each progress report.
    expect(activity).toBe(4);
  } finally {
    await server.close(0);
    await engine.close();
    rmSync(root, { recursive: true, force: true });
  }
});
