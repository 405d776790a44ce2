import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMPT_CAP } from '../src/events/hook-events.js';
import { readCutJsonObject } from '../src/hooks/read-cut-json.js';
import { dumpLog, drain, hookFiles, hooksDir, runCommand, useTempHomes } from './support/temp-home.js';

// A huge prompt (issue 19: 50 MB took 6–10 s and, under UserPromptSubmit's 5 s timeout, nothing
// was recorded): the hook reads stdin to its end but keeps only its start, and records the
// prompt capped.
//
// The budget is a behaviour, not a speed: the hook must finish its work within 5 s. Claude Code
// counts them on the wall clock, which on a busy machine measures the machine (this test failed
// under `timeout 5` at a load of 15 on 2 cores while the hook used under a second of CPU). So the
// 5 s are counted in CPU time, which the hook's own work decides: `prlimit --cpu=5` kills it
// past them (the hook of before spent 6–10 s of CPU parsing the whole payload). Its wall and CPU
// times are printed, not asserted (see docs/durability.md for the figures).
const home = useTempHomes();
const TIME = '/usr/bin/time';

describe('a huge prompt', () => {
  it('50 MB through the real prompt hook within 5 s of CPU is recorded, capped', async () => {
    const h = home();
    const prompt = 'deploy the release branch after the checklist passes '.repeat(Math.ceil((50 * 1024 * 1024) / 53)).slice(0, 50 * 1024 * 1024);
    const payload = JSON.stringify({ session_id: 'sess-huge', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/src/app', hook_event_name: 'UserPromptSubmit', prompt });
    const times = join(h.root, 'times');
    const measured = existsSync(TIME) ? [TIME, '-o', times, '-f', '%e %U %S'] : [];
    const started = performance.now();
    const result = await runCommand('prlimit', ['--cpu=5', ...measured, process.execPath, join(hooksDir, hookFiles.UserPromptSubmit)], { env: h.env, stdin: payload });
    const wall = (performance.now() - started) / 1000;
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    const [, user, sys] = existsSync(times) ? readFileSync(times, 'utf8').trim().split(/\s+/).map(Number) : [];
    console.log(`huge prompt (50 MB): the hook took ${wall.toFixed(2)} s on the wall clock${user === undefined ? '' : `, ${(user + sys!).toFixed(2)} s of CPU`} (load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
    await drain(h.env);
    const recorded = (await dumpLog(h.env)).filter((event) => event.type === 'PromptSubmitted');
    expect(recorded).toHaveLength(1);
    const data = recorded[0]!.data;
    expect(data.truncated).toBe(true);
    expect(data.chars).toBe(prompt.length);
    expect(data.prompt.length).toBeLessThanOrEqual(PROMPT_CAP);
    expect(prompt.startsWith(data.prompt)).toBe(true);
    expect(data.prompt.length).toBeGreaterThan(PROMPT_CAP - 100);
  }, 120_000);
});

describe('readCutJsonObject', () => {
  it('keeps the fields before the cut and the string the cut fell in, and drops a half escape or a half object', () => {
    const whole = JSON.stringify({ a: 1, b: { c: [1, 2, '}'] }, s: 'line one\nline "two" \u00e9' });
    for (let cut = whole.indexOf('"s"') + 5; cut < whole.length - 1; cut++) {
      const read = readCutJsonObject(whole.slice(0, cut));
      expect(read?.value.a).toBe(1);
      expect(read?.value.b).toEqual({ c: [1, 2, '}'] });
      expect(read?.cutField).toBe('s');
      expect('line one\nline "two" \u00e9'.startsWith(read!.value.s as string)).toBe(true);
    }
    expect(readCutJsonObject(whole.slice(0, whole.indexOf('[') + 2))).toEqual({ value: { a: 1 } });
    expect(readCutJsonObject('not json')).toBeUndefined();
  });
});
