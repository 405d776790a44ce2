import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generateClaudeDir, writeBigTranscript } from '../bench/claude-history.js';
import { runBackfill } from '../src/backfill/run-backfill.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { projectSlug } from '../src/paths.js';
import { cliHere, cliPath, useTempHomes, type TempHome } from './support/temp-home.js';

const newHome = useTempHomes();
const NOW = '2026-12-01T10:00:00.000Z';
const PROJECT = '/home/dev/src/payments-api';

function claudeDirFor(home: TempHome): void {
  generateClaudeDir(home.paths.claude, { sessions: 6 });
  const dir = join(home.paths.claude, 'projects', projectSlug(PROJECT));
  mkdirSync(dir, { recursive: true });
  writeBigTranscript(join(dir, 'b16b16b1-0000-4000-8000-000000000000.jsonl'), 8, { project: PROJECT });
  // The same records in both homes, modification times included (RecordBackfilled keeps them).
  const at = new Date('2026-11-30T00:00:00.000Z');
  for (const file of readdirSync(home.paths.claude, { recursive: true, encoding: 'utf8' })) utimesSync(join(home.paths.claude, file), at, at);
}

/** The log as JSON lines, each home's own directory written as <root>. */
async function readLog(home: TempHome): Promise<string[]> {
  const log = await LevelEventLog.open(home.paths.log, { createIfMissing: false });
  const lines: string[] = [];
  try {
    for await (const batch of log.read()) for (const event of batch) lines.push(JSON.stringify(event).replaceAll(home.root, '<root>'));
  } finally {
    await log.close();
  }
  return lines;
}

/** Bytes LevelDB has written to the log so far (its write-ahead files and tables). */
function logBytes(home: TempHome): number {
  try {
    return readdirSync(home.paths.log).filter((name) => /\.(log|ldb)$/.test(name)).reduce((sum, name) => sum + statSync(join(home.paths.log, name)).size, 0);
  } catch {
    return 0;
  }
}

it('killed with SIGKILL halfway and run again, backfill leaves the log a single run leaves: no gap, no duplicate', async () => {
  // One whole run, in this process, straight into a log.
  const reference = newHome();
  claudeDirFor(reference);
  mkdirSync(reference.paths.home, { recursive: true });
  const log = await LevelEventLog.open(reference.paths.log);
  await runBackfill({ claudeDir: reference.paths.claude, now: new Date(NOW) }, {
    append: async (events) => (await log.append(events)).appended.map((event) => event.id),
    has: (ids) => log.has(ids),
    liveSince: async () => undefined,
  });
  await log.close();
  const whole = await readLog(reference);
  const fullBytes = logBytes(reference);

  // Killed once about a third of what a whole run writes is in the log: in the middle of the big
  // transcript. The first batch (500 of the 833 events) is itself more than a third of the bytes,
  // so a kill can land while LevelDB is still writing it, and recovery then drops it whole: a
  // crash too, but not the one this test is about. Such a run is tried again, on a fresh home.
  let home = newHome({ ENGRAM_NOW: NOW });
  let cut: string[] = [];
  for (let attempt = 0; attempt < 4 && cut.length === 0; attempt++) {
    home = attempt === 0 ? home : newHome({ ENGRAM_NOW: NOW });
    claudeDirFor(home);
    const child = spawn(process.execPath, [cliPath, 'backfill'], { env: home.env, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const poll = setInterval(() => {
      if (logBytes(home) > fullBytes / 3) child.kill('SIGKILL');
    }, 5);
    const signal = await exited;
    clearInterval(poll);
    expect(signal).toBe('SIGKILL');
    cut = await readLog(home);
  }
  expect(cut.length).toBeGreaterThan(0);
  expect(cut.length).toBeLessThan(whole.length);

  const again = await cliHere(['backfill'], home.env);
  expect(again.code, again.stderr).toBe(0);
  // Same events, same ids, same seqs, in the same order: the log of one whole run.
  expect(await readLog(home)).toEqual(whole);
}, 120_000);

