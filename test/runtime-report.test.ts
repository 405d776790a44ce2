import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePaths } from '../src/paths.js';
import { runtimeFindings } from '../src/plugin/runtime-report.js';
import { runtimeNotice } from '../src/plugin/runtime-notice.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setUp() {
  const root = mkdtempSync(join(tmpdir(), 'engram-runtime-'));
  roots.push(root);
  const env = { ENGRAM_HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'claude'), CLAUDE_PLUGIN_DATA: join(root, 'data') };
  const runtime = join(root, 'data', 'runtime');
  const status = (build: string, value: object | string) => {
    mkdirSync(join(runtime, build), { recursive: true });
    writeFileSync(join(runtime, build, 'status.json'), typeof value === 'string' ? value : JSON.stringify(value));
  };
  return { env, paths: resolvePaths(env), runtime, status };
}

describe("the plugin's runtime, as doctor and the SessionStart line tell it", () => {
  it('says what is being prepared, what failed and why, what is ready, and what was left unfinished', () => {
    const { env, paths, runtime, status } = setUp();
    expect(runtimeFindings(runtime)).toEqual([]);
    expect(runtimeNotice(paths, env, '1.0.0+0')).toContain(`engram is preparing its worker in the background (installing its dependencies into ${join(runtime, '1.0.0+0')}`);

    status('1.0.0+0', { state: 'preparing', step: 'building the worker', since: '2026-12-01T10:00:00.000Z', pid: process.pid });
    status('0.9.0+0', { state: 'failed', step: 'preparing the worker', since: '2026-12-01T09:00:00.000Z', error: 'npm ci exited 1: ENOTFOUND registry.npmjs.org' });
    status('0.8.0+0', { state: 'preparing', step: 'building the worker', since: '2026-12-01T08:00:00.000Z', pid: 2 ** 22 + 1 });
    mkdirSync(join(runtime, '0.7.0+0'));
    writeFileSync(join(runtime, '0.7.0+0', 'main.js'), '');
    expect(runtimeFindings(runtime)).toEqual([
      { ok: true, text: `the plugin's worker runtime for build 0.7.0+0 is ready in ${join(runtime, '0.7.0+0')}` },
      { ok: false, text: `the plugin's worker runtime for build 0.8.0+0 in ${join(runtime, '0.8.0+0')} is unfinished and nothing is preparing it; the next plugin hook starts again` },
      { ok: false, text: expect.stringContaining("the plugin's worker runtime for build 0.9.0+0 could not be prepared (npm ci exited 1: ENOTFOUND registry.npmjs.org, at 2026-12-01T09:00:00.000Z)") },
      { ok: true, text: "the plugin's worker runtime for build 1.0.0+0 is being prepared: building the worker (since 2026-12-01T10:00:00.000Z); hooks keep spooling until it is ready" },
    ]);
    expect(runtimeNotice(paths, env, '1.0.0+0')).toBe("engram is preparing its worker in the background (building the worker, a minute or two the first time); until it is ready, this session is recorded in engram's spool and nothing is lost.");
    expect(runtimeNotice(paths, env, '0.9.0+0')).toContain('engram could not prepare its worker (npm ci exited 1: ENOTFOUND registry.npmjs.org); this session is still recorded');
    expect(runtimeNotice(paths, env, '0.7.0+0')).toBe('');
    // A status file that is not one reads as none.
    status('1.0.0+0', '{ torn');
    expect(runtimeNotice(paths, env, '1.0.0+0')).toContain('installing its dependencies into');
  });
});
