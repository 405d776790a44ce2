import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHere, runCli, runHook, useTempHomes } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';

const home = useTempHomes();
// Commands run in this process (`cliHere`) except `uninstall --purge` without --yes, whose
// refusal depends on there being no terminal to ask on: a spawned CLI's stdin is a pipe, the
// test process's may be a terminal. `worker --detach` spawns the bin either way.

describe('engram uninstall', () => {
  it('--purge shows what it removes and removes nothing without --yes or a terminal to ask on; with --yes it stops the worker and removes engram\'s data, never memory files or what is not engram\'s', { timeout: 120_000 }, async () => {
    const h = home();
    expect((await cliHere(['install'], h.env)).code).toBe(0);
    const cwd = join(h.root, 'project');
    expect((await runHook('UserPromptSubmit', { session_id: 's', cwd, prompt: 'from now on use pnpm, not npm' }, h.env)).code).toBe(0);
    expect((await runCli(['worker', '--detach'], h.env)).code).toBe(0);
    expect(await waitUntil(() => readdirSync(h.paths.spoolNew).length === 0, 60_000)).toBe(true);
    // What engram wrote in the memory directory, a file a person wrote there, and a file of
    // someone else's in ENGRAM_HOME.
    const memoryDir = join(h.paths.claude, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    expect(await waitUntil(() => existsSync(memoryDir) && readdirSync(memoryDir).some((f) => f !== 'MEMORY.md'), 60_000)).toBe(true);
    writeFileSync(join(memoryDir, 'mine.md'), '---\nname: mine\ndescription: written by hand\ntype: user\n---\nkeep me\n');
    writeFileSync(join(h.paths.home, 'notes.txt'), 'not engram\'s');

    const refused = await runCli(['uninstall', '--purge'], h.env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('engram uninstall --purge removes:');
    expect(refused.stdout).toContain(`  ${h.paths.log}`);
    expect(refused.stdout).toContain(`and keeps (not engram's):\n  ${join(h.paths.home, 'notes.txt')}`);
    expect(refused.stderr).toContain('nothing removed: confirm with `engram uninstall --purge --yes`');
    expect(existsSync(h.paths.log)).toBe(true);
    // The hooks went all the same: that is the uninstall.
    expect(JSON.parse(readFileSync(join(h.paths.claude, 'settings.json'), 'utf8')).hooks).toBeUndefined();

    expect((await cliHere(['worker', '--drain'], h.env)).code).toBe(0);
    const memoryFiles = readdirSync(memoryDir).sort();
    const pid = Number(readFileSync(h.paths.pidFile, 'utf8').split(/\s/)[0]);
    const purged = await cliHere(['uninstall', '--purge', '--yes'], h.env);
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toContain(`stopped worker ${pid}`);
    expect(readdirSync(h.paths.home)).toEqual(['notes.txt']);
    expect(readdirSync(memoryDir).sort()).toEqual(memoryFiles);
    expect(memoryFiles).toContain('mine.md');
    expect(readFileSync(join(memoryDir, 'mine.md'), 'utf8')).toContain('keep me');

    // Run again: nothing of engram's is left.
    const again = await cliHere(['uninstall', '--purge', '--yes'], h.env);
    expect(again.stdout).toContain("nothing of engram's data to remove");
  });

  it('without --purge keeps ENGRAM_HOME, and --purge goes only with uninstall', async () => {
    const h = home();
    expect((await cliHere(['install'], h.env)).code).toBe(0);
    expect((await runHook('SessionStart', { session_id: 's', cwd: h.root, source: 'startup' }, h.env)).code).toBe(0);
    expect((await cliHere(['uninstall'], h.env)).code).toBe(0);
    expect(readdirSync(h.paths.spoolNew)).toHaveLength(1);
    const misuse = await cliHere(['install', '--purge'], h.env);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('--purge and --yes go with `engram uninstall`');
  });
});
