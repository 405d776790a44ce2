import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings, withConfig } from '../src/config/effective-settings.js';
import { ENVIRONMENT_ONLY, SETTINGS } from '../src/config/setting-table.js';
import { applyHookConfig, HOOK_SETTINGS } from '../src/hooks/hook-config.js';
import { cliHere, repoRoot, runHook, useTempHomes } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
/** A temporary home whose environment leaves the settings under test to config.json. */
const unset = { ENGRAM_DISTILLER: '', ENGRAM_WORKER_AUTOSTART: '', ENGRAM_LLM_CMD: '' };

describe('config.json: one file, the environment over it', () => {
  it('the table, the hooks\' list and docs/configuration.md agree: every setting, its variable and default', () => {
    const docs = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8');
    for (const s of SETTINGS) expect(docs).toContain(`| \`${s.key}\` | \`${s.env}\` | ${s.default === '' ? 'none' : `\`${s.default}\``} |`);
    for (const e of ENVIRONMENT_ONLY) expect(docs).toContain(`| \`${e.env}\` |`);
    expect(HOOK_SETTINGS.map((s) => [s.key, s.env])).toEqual(SETTINGS.filter((s) => s.readBy === 'hooks').map((s) => [s.key, s.env]));
    // The code reads no ENGRAM_* variable the docs do not name.
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('docs/configuration.md');
  });

  it('env > file > default, and an environment engram filled from the file is not taken for the user\'s', () => {
    const paths = { config: '/nonexistent/config.json' };
    const file = { distiller: 'off', recallWaitMs: 300, audit: true };
    const given = { ENGRAM_RECALL_WAIT_MS: '20' };
    const effective = resolveSettings(given, file);
    expect(effective.find((s) => s.key === 'distiller')).toMatchObject({ value: 'off', source: 'file' });
    expect(effective.find((s) => s.key === 'recallWaitMs')).toMatchObject({ value: '20', source: 'env' });
    expect(effective.find((s) => s.key === 'audit')).toMatchObject({ value: '1', source: 'file' });
    expect(effective.find((s) => s.key === 'embedder')).toMatchObject({ value: 'use-lite', source: 'default' });
    // A child started with a filled environment reads the file again (here: there is none now).
    const filled = { ENGRAM_DISTILLER: 'off', ENGRAM_CONFIG_FROM_FILE: 'ENGRAM_DISTILLER' };
    expect(withConfig(filled, paths).ENGRAM_DISTILLER).toBeUndefined();
    expect(resolveSettings(filled, {}).find((s) => s.key === 'distiller')).toMatchObject({ value: 'on', source: 'default' });
    const hookEnv: NodeJS.ProcessEnv = { ENGRAM_RECALL_WAIT_MS: '0', ENGRAM_CONFIG_FROM_FILE: 'ENGRAM_RECALL_WAIT_MS' };
    applyHookConfig('/nonexistent', hookEnv);
    expect(hookEnv.ENGRAM_RECALL_WAIT_MS).toBe('0'); // no file: nothing is read, nothing changes
  });

  it('`config set` checks the value; `list` shows each value and its source; `get` says when the environment overrides', async () => {
    const h = home(unset);
    expect((await cliHere(['config', 'set', 'distiller', 'off'], h.env)).code).toBe(0);
    expect((await cliHere(['config', 'set', 'recallWaitMs', '300'], h.env)).code).toBe(0);
    expect((await cliHere(['config', 'set', 'audit', 'on'], h.env)).code).toBe(0);
    expect(JSON.parse(readFileSync(h.paths.config, 'utf8'))).toEqual({ distiller: 'off', recallWaitMs: 300, audit: true });
    const bad = await cliHere(['config', 'set', 'distiller', 'maybe'], h.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('engram: distiller cannot be "maybe": Invalid option: expected one of "on"|"off" (`off`: no session is distilled into memories)\n');
    const negative = await cliHere(['config', 'set', 'recallWaitMs', '-3'], h.env);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('recallWaitMs cannot be "-3"');
    expect((await cliHere(['config', 'set', 'nosuch', '1'], h.env)).stderr).toContain('"nosuch" is not a setting; the settings are distiller, llmCommand');
    const list = await cliHere(['config', 'list'], { ...h.env, ENGRAM_EMBEDDER: 'off' });
    expect(list.stdout).toMatch(/^SETTING +VALUE +FROM +ENVIRONMENT VARIABLE$/m);
    expect(list.stdout).toMatch(/^distiller +off +config\.json +ENGRAM_DISTILLER$/m);
    expect(list.stdout).toMatch(/^embedder +off +env ENGRAM_EMBEDDER +ENGRAM_EMBEDDER$/m);
    expect(list.stdout).toMatch(/^llmTimeoutMs +120000 +default /m);
    const got = await cliHere(['config', 'get', 'distiller'], { ...h.env, ENGRAM_DISTILLER: 'on' });
    expect(got.stdout).toBe('on\n');
    expect(got.stderr).toContain('ENGRAM_DISTILLER');
    expect((await cliHere(['config', 'unset', 'audit'], h.env)).code).toBe(0);
    expect(JSON.parse(readFileSync(h.paths.config, 'utf8'))).toEqual({ distiller: 'off', recallWaitMs: 300 });
  });

  it('a file engram cannot trust stops the commands that would use it, saying which key and why, and doctor says so', async () => {
    const h = home(unset);
    mkdirSync(h.paths.home, { recursive: true });
    writeFileSync(h.paths.config, '{"distiller": "maybe", "colour": 1}');
    const stats = await cliHere(['log', 'stats'], h.env);
    expect(stats.code).toBe(1);
    expect(stats.stderr).toContain(`engram: ${h.paths.config}: distiller: Invalid option: expected one of "on"|"off"; (root): a key the schema does not know (unknown: "colour")`);
    expect(stats.stderr).not.toContain('[');
    const doctor = await cliHere(['doctor'], h.env);
    expect(doctor.stdout).toContain(`✗ ${h.paths.config}: distiller`);
    writeFileSync(h.paths.config, 'not json');
    expect((await cliHere(['log', 'stats'], h.env)).stderr).toContain('is not JSON');
  });

  it('every process sees the file: a hook obeys it, the worker a hook starts runs with it (doctor shows the worker\'s, not the shell\'s), and a change restarts the worker', { timeout: 120_000 }, async () => {
    const h = home(unset);
    const base = { session_id: 's1', cwd: join(h.root, 'project'), transcript_path: join(h.root, 't.jsonl') };
    // The hooks read workerAutostart from the file: off, no worker starts.
    expect((await cliHere(['config', 'set', 'workerAutostart', 'false'], h.env)).code).toBe(0);
    expect((await runHook('SessionStart', { ...base, hook_event_name: 'SessionStart', source: 'startup' }, h.env)).code).toBe(0);
    expect(existsSync(h.paths.pidFile)).toBe(false);
    // On, and the distiller off in the file only: the worker the hook starts runs with it.
    expect((await cliHere(['config', 'set', 'workerAutostart', 'true'], h.env)).code).toBe(0);
    expect((await cliHere(['config', 'set', 'distiller', 'off'], h.env)).code).toBe(0);
    expect((await runHook('UserPromptSubmit', { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'hello there' }, h.env)).code).toBe(0);
    expect(await waitUntil(() => existsSync(h.paths.pidFile), 30_000)).toBe(true);
    // The shell that asks says on; the worker's answer counts.
    const doctor = await cliHere(['doctor'], { ...h.env, ENGRAM_DISTILLER: 'on' });
    const pid = /settings of the worker \(pid (\d+)\)/.exec(doctor.stdout)?.[1];
    expect(pid, doctor.stdout).toBeDefined();
    expect(doctor.stdout).toContain('      distiller = off  (config.json)');
    expect(doctor.stdout).toContain('- the distiller is off (distiller = off, from config.json)');
    // The file changes: the worker notices, starts its successor and hands over to it.
    const set = await cliHere(['config', 'set', 'distiller', 'on'], h.env);
    expect(set.stdout).toContain('restarts itself to apply it');
    let after = '';
    expect(await waitUntil(async () => {
      after = (await cliHere(['doctor'], h.env)).stdout;
      const now = /settings of the worker \(pid (\d+)\)/.exec(after)?.[1];
      return now !== undefined && now !== pid;
      // Every 250 ms: each look is a doctor run, CPU the successor's start needs.
    }, 60_000, 250)).toBe(true);
    expect(after).toContain('      distiller = on  (config.json)');
    expect(after).not.toContain('config.json now says');
    expect(readFileSync(h.paths.workerLog, 'utf8')).toContain('config.json changed (distiller: off → on); restarting to apply it');
  });
});
