import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendRotated, HOOKS_LOG_ROTATION, WORKER_LOG_ROTATION } from '../src/append-rotated.js';
import { runCli, runHook, useTempHomes } from './support/temp-home.js';

const home = useTempHomes();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('log files', () => {
  it('rotate once full, keeping the newest previous files and dropping the oldest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-rotate-'));
    dirs.push(dir);
    const log = join(dir, 'x.log');
    const rotation = { maxBytes: 10, keep: 2 };
    for (const line of ['aaaaaaaaaa\n', 'bbbbbbbbbb\n', 'cccccccccc\n', 'dddddddddd\n']) appendRotated(log, line, rotation);
    expect(readFileSync(log, 'utf8')).toBe('dddddddddd\n');
    expect(readFileSync(`${log}.1`, 'utf8')).toBe('cccccccccc\n');
    expect(readFileSync(`${log}.2`, 'utf8')).toBe('bbbbbbbbbb\n');
    expect(existsSync(`${log}.3`)).toBe(false);
  });

  it('hooks.log is rotated by the hook that finds it full', async () => {
    const h = home();
    mkdirSync(h.paths.logs, { recursive: true });
    const full = `${'an old hook error\n'.repeat(Math.ceil(HOOKS_LOG_ROTATION.maxBytes / 18))}`;
    writeFileSync(h.paths.hooksLog, full);
    expect((await runHook('Stop', 'not json', h.env)).code).toBe(0);
    expect(readFileSync(`${h.paths.hooksLog}.1`, 'utf8')).toBe(full);
    expect(readFileSync(h.paths.hooksLog, 'utf8')).toMatch(/^\S+ Stop pid=\d+ stdin is not JSON[^\n]*\n$/);
  });

  it('worker.log is rotated by the worker that finds it full', async () => {
    const h = home();
    mkdirSync(h.paths.logs, { recursive: true });
    writeFileSync(h.paths.workerLog, 'x'.repeat(WORKER_LOG_ROTATION.maxBytes));
    writeFileSync(`${h.paths.workerLog}.1`, 'the previous one\n');
    expect((await runCli(['worker', '--detach'], h.env)).code).toBe(0);
    expect(statSync(`${h.paths.workerLog}.1`).size).toBeGreaterThanOrEqual(WORKER_LOG_ROTATION.maxBytes);
    expect(readFileSync(`${h.paths.workerLog}.2`, 'utf8')).toBe('the previous one\n');
    expect(readFileSync(h.paths.workerLog, 'utf8')).toContain(' started; build ');
  });
});
