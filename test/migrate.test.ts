import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { logMigrations } from '../migrations/index.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { defineLogMigration } from '../src/events/define-log-migration.js';
import { POINTER_CAP, PROMPT_CAP } from '../src/events/hook-events.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { APPLIED_META, finishInterruptedSwap, planMigrations, swapInMigratedLog, writeMigratedLog } from '../src/log/migrate-log.js';
import { appendAsOlderEngram } from './support/older-log.js';
import { cliHere, drain, dumpLog, runHook, tempHome, type TempHome } from './support/temp-home.js';

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
    await appendAsOlderEngram(h.paths.log, oldEvents);
    const log = await LevelEventLog.open(h.paths.log);
    await log.close();

    const plan = await cliHere(['migrate', '--dry-run'], h.env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('would apply 2 migration(s) to 4 events');
    // Both redact with today's rules: the first takes everything, the second finds nothing left.
    expect(plan.stdout).toContain('0002-redact-with-current-rules: redact every stored string again with the current redaction rules\n    rewrites 2 events (PromptSubmitted 1, ToolCalled 1); e.g. seq 2, 3');
    expect(plan.stdout).toContain('0003-redact-with-second-pass-rules: redact every stored string again with the current redaction rules\n    rewrites 0 events');
    expect(JSON.stringify(await dumpLog(h.env))).toContain(token);

    const run = await cliHere(['migrate'], h.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/migrated 4 events; the old log is kept at .*log\.before-0003-redact-with-second-pass-rules-/);
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

    const again = await cliHere(['migrate', '--dry-run'], h.env);
    expect(again.stdout).toContain('nothing to migrate');
  });

  it('takes out what the second pass of the rules recognises from a log the first pass already migrated (0003)', async () => {
    const h = tempHome();
    homes.push(h);
    await appendAsOlderEngram(h.paths.log, [
      { ...base, id: 'old-000000021', type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Bash', input: 'sshpass -p Hunt3rFAKE ssh deploy@web1', ok: true } },
      { ...base, id: 'old-000000022', type: 'PromptSubmitted', schemaVersion: 2, data: { prompt: 'my password is Sunshine42FAKE', chars: 29, truncated: false } },
      { ...base, id: 'old-000000023', type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Bash', input: 'AWS_REGION=eu-west-1 aws s3 ls', ok: true } },
    ]);
    const log = await LevelEventLog.open(h.paths.log);
    await log.setMeta(APPLIED_META, JSON.stringify(['0002-redact-with-current-rules']));
    await log.close();
    const plan = await cliHere(['migrate', '--dry-run'], h.env);
    expect(plan.stdout).toContain('would apply 1 migration(s) to 3 events');
    expect(plan.stdout).toContain('rewrites 2 events (ToolCalled 1, PromptSubmitted 1); e.g. seq 1, 2');
    const run = await cliHere(['migrate'], h.env);
    expect(run.code, run.stderr).toBe(0);
    const after = await dumpLog(h.env);
    expect(after.map((e) => e.data.input ?? e.data.prompt)).toEqual([
      'sshpass -p [REDACTED:password] ssh deploy@web1',
      'my password is [REDACTED:secret]',
      'AWS_REGION=eu-west-1 aws s3 ls',
    ]);
  });

  it('keeps re-redacted strings within their caps, and the dry run checks what the run will write', async () => {
    const h = tempHome();
    homes.push(h);
    // Capped when they were written, by rules that let a short secret through: its marker is
    // longer than the secret, and would push each past its cap.
    const pointer = `${'ls '.repeat(65)}pw=x1`;
    const prompt = `${'lorem ipsum '.repeat(1700).slice(0, PROMPT_CAP - 9)}token: th`;
    expect([pointer.length, prompt.length]).toEqual([POINTER_CAP, PROMPT_CAP]);
    await appendAsOlderEngram(h.paths.log, [
      { ...base, id: 'old-000000011', type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Bash', input: pointer, ok: true } },
      { ...base, id: 'old-000000012', type: 'PromptSubmitted', schemaVersion: 2, data: { prompt, chars: 25_000, truncated: true } },
    ]);
    const log = await LevelEventLog.open(h.paths.log);
    await log.close();

    const plan = await cliHere(['migrate', '--dry-run'], h.env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('rewrites 2 events (ToolCalled 1, PromptSubmitted 1)');
    const run = await cliHere(['migrate'], h.env);
    expect(run.code, run.stderr).toBe(0);
    const [tool, typed] = await dumpLog(h.env);
    expect(tool!.data.input).toBe(`${'ls '.repeat(65)}pw=`);
    expect(typed!.data.prompt.length).toBeLessThanOrEqual(PROMPT_CAP);
    expect(typed!.data.prompt).not.toMatch(/token: th$|\[REDACTED:[\w-]*$/);
  });

  it('a dry run fails where the run would: an event the migrated log could not read', async () => {
    const h = tempHome();
    homes.push(h);
    await appendAsOlderEngram(h.paths.log, [
      ...oldEvents,
      // Over the cap: stored by a hook that did not check it.
      { ...base, id: 'old-000000005', type: 'ToolCalled', schemaVersion: 1, data: { tool: 'Bash', input: 'x'.repeat(POINTER_CAP + 50), ok: true } },
    ]);
    const log = await LevelEventLog.open(h.paths.log);
    await log.close();
    const plan = await cliHere(['migrate', '--dry-run'], h.env);
    const run = await cliHere(['migrate'], h.env);
    for (const result of [plan, run]) {
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('the event at seq 5 would not be readable after migrating');
    }
    expect(readdirSync(h.paths.home).filter((n) => n.startsWith('log.'))).toEqual([]);
    expect(JSON.stringify(await dumpLog(h.env))).toContain(token);
  });

  it('planMigrations rejects a migration that breaks an event, as writeMigratedLog would', async () => {
    const h = tempHome();
    homes.push(h);
    await appendAsOlderEngram(h.paths.log, oldEvents);
    const log = await LevelEventLog.open(h.paths.log);
    const grows = defineLogMigration({
      id: '9999-grows-pointers',
      description: 'a careless migration',
      transform: (event) => (event.type === 'ToolCalled' ? { ...event, data: { ...event.data as object, input: 'y'.repeat(POINTER_CAP + 1) } } : event),
    });
    try {
      await expect(planMigrations(log, [grows], defaultCatalog())).rejects.toMatchObject({ code: 'MIGRATION_FAILED' });
      await expect(writeMigratedLog(log, h.paths.log, [grows], defaultCatalog())).rejects.toThrow(/ToolCalled v1 data is invalid/);
    } finally {
      await log.close();
    }
  });

  it('lifts a redacted v1 prompt to v2 without cutting a marker in half', () => {
    const prompt = `${'a'.repeat(PROMPT_CAP - 5)} API_KEY=[REDACTED:env] and more`;
    const event = { ...oldEvents[1]!, seq: 2, data: { prompt } };
    const read = defaultCatalog().read(event).data as { prompt: string; chars: number; truncated: boolean };
    expect(read).toEqual({ prompt: `${'a'.repeat(PROMPT_CAP - 5)} API_`, chars: prompt.length, truncated: true });
  });

  it('removes the old log only when asked, after the new one is in place', async () => {
    const h = tempHome();
    homes.push(h);
    await appendAsOlderEngram(h.paths.log, oldEvents);
    const log = await LevelEventLog.open(h.paths.log);
    await log.close();
    const run = await cliHere(['migrate', '--discard-old'], h.env);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(h.paths.home).filter((n) => n.startsWith('log.'))).toEqual([]);
    expect((await dumpLog(h.env)).length).toBe(4);
  });

  it('never leaves a missing log behind, wherever a crash stops the swap', async () => {
    for (const step of ['old-log-moved', 'new-log-moved', 'mark-removed'] as const) {
      const h = tempHome();
      homes.push(h);
      await appendAsOlderEngram(h.paths.log, oldEvents);
      const log = await LevelEventLog.open(h.paths.log);
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
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout).toMatch(/projection sessions must be rebuilt from the log because its checkpoint is of another log/);
    await drain(h.env);
    const after = await cliHere(['doctor'], h.env);
    expect(after.stdout).toMatch(/projection sessions was rebuilt from the log at .* because its checkpoint is of another log/);
    expect(after.stdout).toMatch(/all \d+ projections are up to date/);
  });

  it('a log started by this engram is born migrated', async () => {
    const h = tempHome();
    homes.push(h);
    await runHook('UserPromptSubmit', { session_id: 's', cwd: '/x', prompt: 'hello' }, h.env);
    await drain(h.env);
    expect((await cliHere(['migrate', '--dry-run'], h.env)).stdout).toContain('nothing to migrate: the log (1 events)');
  });
});
