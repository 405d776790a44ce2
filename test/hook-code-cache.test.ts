import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook, useTempHomes } from './support/temp-home.js';

// The hooks run their bundle through V8's code cache (src/hooks/run-hook-code.ts). The cache is a
// shortcut only: these tests check that whatever is in it, the hook says and stores the same.
const home = useTempHomes();
const common = { session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app', hook_event_name: 'UserPromptSubmit' };
const correction = { ...common, prompt: 'No, I told you to use pnpm, not npm!' };
const expected = 'engram noted a lesson for this project: "use pnpm, not npm" (saved to memory).\n';

function cacheFiles(engramHome: string): string[] {
  const dir = join(engramHome, 'cache', 'hook-code');
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

describe('the hooks’ code cache', () => {
  it('is written by the first run, read by the next, and changes nothing the hook does', async () => {
    const h = home();
    const first = await runHook('UserPromptSubmit', correction, h.env);
    expect(first).toMatchObject({ code: 0, stdout: expected, stderr: '' });
    const [file, ...others] = cacheFiles(h.paths.home);
    expect(others).toEqual([]);
    expect(file).toMatch(/user-prompt-submit-\d+-\d+-\d+-v\d+\.\d+\.\d+-\w+\.bin$/);
    const written = statSync(file!).mtimeMs;
    const bytes = readFileSync(file!);

    const second = await runHook('UserPromptSubmit', correction, h.env);
    expect(second).toMatchObject({ code: 0, stdout: expected, stderr: '' });
    // Accepted by V8, so not written again.
    expect(statSync(file!).mtimeMs).toBe(written);
    expect(readFileSync(file!).equals(bytes)).toBe(true);
  });

  it('a torn, corrupt or foreign cache file is recompiled from the bundle and replaced', async () => {
    const h = home();
    await runHook('UserPromptSubmit', correction, h.env);
    const [file] = cacheFiles(h.paths.home);
    const good = readFileSync(file!);
    const damaged: Array<[string, Buffer]> = [
      ['torn', good.subarray(0, good.length >> 1)],
      // The file holds V8's data twice: damage to either copy is caught.
      ['one byte flipped in the first copy', Buffer.from(good.map((byte, i) => (i === 100 ? byte ^ 0xff : byte)))],
      ['one byte flipped in the second copy', Buffer.from(good.map((byte, i) => (i === good.length - 100 ? byte ^ 0xff : byte)))],
      ['its tail zeroed, as a crash before the data reached the disk may leave it', Buffer.concat([good.subarray(0, good.length - 4096), Buffer.alloc(4096)])],
      ['not a cache', Buffer.from('hello')],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [, bytes] of damaged) {
      writeFileSync(file!, bytes);
      const result = await runHook('UserPromptSubmit', correction, h.env);
      expect(result).toMatchObject({ code: 0, stdout: expected, stderr: '' });
      expect(readFileSync(file!).length).toBeGreaterThan(1000);
    }
    expect(existsSync(join(h.paths.home, 'logs', 'hooks.log'))).toBe(false);
  });

  it('drops the caches of the hook’s earlier builds, and ENGRAM_HOOK_CODE_CACHE=off writes none', async () => {
    const h = home();
    await runHook('UserPromptSubmit', correction, h.env);
    const [file] = cacheFiles(h.paths.home);
    const older = file!.replace(/-(\d+)-(\d+)-(\d+)-v/, '-$1-$2-1000-v');
    const otherHook = file!.replace('user-prompt-submit-', 'session-end-');
    writeFileSync(older, 'old');
    writeFileSync(otherHook, 'another hook');
    writeFileSync(file!, 'stale');
    await runHook('UserPromptSubmit', correction, h.env);
    expect(cacheFiles(h.paths.home).sort()).toEqual([otherHook, file!].sort());

    const off = home({ ENGRAM_HOOK_CODE_CACHE: 'off' });
    expect(await runHook('UserPromptSubmit', correction, off.env)).toMatchObject({ code: 0, stdout: expected, stderr: '' });
    expect(cacheFiles(off.paths.home)).toEqual([]);
  });
});
