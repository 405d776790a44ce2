import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { logMigrations } from '../migrations/index.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { finishInterruptedSwap, swapInMigratedLog, writeMigratedLog } from '../src/log/migrate-log.js';
import { drain, dumpLog, runCli, runHook, tempHome, type TempHome } from './support/temp-home.js';

const homes: TempHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

const token = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const base = { ts: '2026-10-01T10:00:00.000Z', session: 'old-session', project: '/home/dev/src/legacy' };
// As an engram from before a rule existed would have stored them: secrets in plain text.
const oldEvents: Envelope[] = [
  { ...base, id: 'old-000000001', type: 'SessionStarted', schemaVersion: 1, data: { source: 'startup' } },
  { ...base, id: 'old-000000002', type: 'PromptSubmitted', schemaVersion: 1, data: { prompt: `push with ${token} please` } },
  { ...base, id: 'old-000000003', type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Bash', input: `git push https://me:${token}@github.com/x/y`, ok: true } },
  { ...base, id: 'old-000000004', type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Read', input: 'src/index.ts', ok: true } },
];

describe('engram migrate', () => {
  it('says what it would change, then rewrites the log through the new rules, keeping the old one', async () => {
    const h = tempHome();
    homes.push(h);
    const log = await LevelEventLog.open(h.paths.log);
    await log.append(oldEvents);
    await log.close();

    const plan = await runCli(['migrate', '--dry-run'], h.env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('would apply 1 migration(s) to 4 events');
    expect(plan.stdout).toContain('rewrites 2 events (PromptSubmitted 1, ToolCalled 1); e.g. seq 2, 3');
    expect(JSON.stringify(await dumpLog(h.env))).toContain(token);

    const run = await runCli(['migrate'], h.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/migrated 4 events; the old log is kept at .*log\.before-0002-redact-with-current-rules-/);
    const after = await dumpLog(h.env);
    expect(JSON.stringify(after)).not.toContain(token);
    expect(after.map((e) => [e.seq, e.id, e.type, e.schemaVersion])).toEqual(oldEvents.map((e, i) => [i + 1, e.id, e.type, e.schemaVersion]));
    expect(after[1]!.data.prompt).toBe('push with [REDACTED:github-token] please');
    const backups = readdirSync(h.paths.home).filter((n) => n.startsWith('log.before-'));
    expect(backups.length).toBe(1);
    // The projections were rebuilt from the new log.
    const session = join(h.paths.views, 'sessions', '-home-dev-src-legacy', '2026-10-01.jsonl');
    expect(existsSync(session)).toBe(true);
    expect(readFileSync(session, 'utf8')).not.toContain(token);
    expect(JSON.parse(readFileSync(session, 'utf8'))).toMatchObject({ session: 'old-session', prompts: 1, toolCalls: 2 });

    const again = await runCli(['migrate', '--dry-run'], h.env);
    expect(again.stdout).toContain('nothing to migrate');
  });

  it('removes the old log only when asked, after the new one is in place', async () => {
    const h = tempHome();
    homes.push(h);
    const log = await LevelEventLog.open(h.paths.log);
    await log.append(oldEvents);
    await log.close();
    const run = await runCli(['migrate', '--discard-old'], h.env);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(h.paths.home).filter((n) => n.startsWith('log.'))).toEqual([]);
    expect((await dumpLog(h.env)).length).toBe(4);
  });

  it('never leaves a missing log behind, wherever a crash stops the swap', async () => {
    for (const step of ['old-log-moved', 'new-log-moved', 'mark-removed'] as const) {
      const h = tempHome();
      homes.push(h);
      const log = await LevelEventLog.open(h.paths.log);
      await log.append(oldEvents);
      const oldId = log.id;
      await writeMigratedLog(log, h.paths.log, logMigrations, defaultCatalog());
      await log.close();
      expect(() => swapInMigratedLog(h.paths.log, 'log.before-test', (at) => {
        if (at === step) throw new Error(`crashed after ${at}`);
      })).toThrow(`crashed after ${step}`);
      // What the next open finds: the migrated log, never an empty one made in its place.
      finishInterruptedSwap(h.paths.log);
      const reopened = await LevelEventLog.open(h.paths.log);
      expect(reopened.head, step).toBe(oldEvents.length);
      expect(reopened.id, step).not.toBe(oldId);
      const events: string[] = [];
      for await (const batch of reopened.read()) for (const e of batch) events.push(JSON.stringify(e.data));
      expect(events.join('\n'), step).not.toContain(token);
      await reopened.close();
      expect(existsSync(join(h.paths.log, 'ENGRAM_VERIFIED')), step).toBe(false);
    }
  });

  it('rebuilds every projection from the migrated log, and doctor says why', async () => {
    const h = tempHome();
    homes.push(h);
    await runHook('UserPromptSubmit', { session_id: 's', cwd: '/home/dev/x', prompt: `use ${token}` }, h.env);
    await drain(h.env);
    // A log swapped in behind the worker's back: its checkpoints are of the old log.
    const log = await LevelEventLog.open(h.paths.log);
    await writeMigratedLog(log, h.paths.log, [{ id: '9999-test', description: 'test', transform: (e) => e }], defaultCatalog());
    await log.close();
    swapInMigratedLog(h.paths.log, 'log.before-test');
    const doctor = await runCli(['doctor'], h.env);
    expect(doctor.stdout).toMatch(/projection sessions must be rebuilt from the log because its checkpoint is of another log/);
    await drain(h.env);
    const after = await runCli(['doctor'], h.env);
    expect(after.stdout).toMatch(/projection sessions was rebuilt from the log at .* because its checkpoint is of another log/);
    expect(after.stdout).toContain('all 4 projections are up to date');
  });

  it('a log started by this engram is born migrated', async () => {
    const h = tempHome();
    homes.push(h);
    await runHook('UserPromptSubmit', { session_id: 's', cwd: '/x', prompt: 'hello' }, h.env);
    await drain(h.env);
    expect((await runCli(['migrate', '--dry-run'], h.env)).stdout).toContain('nothing to migrate: the log (1 events)');
  });
});
