import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runHook, tempHome, type HookName, type TempHome } from './temp-home.js';

const session = { session_id: 'warm-up', transcript_path: '/tmp/warm-up.jsonl', cwd: '/home/dev/src/warm-up' };

/** A payload each hook takes whole, so that the code it runs is compiled into its cache. */
const payloads: Partial<Record<HookName, object>> = {
  SessionStart: { ...session, hook_event_name: 'SessionStart', source: 'startup' },
  UserPromptSubmit: { ...session, hook_event_name: 'UserPromptSubmit', prompt: 'how do we run the migrations here' },
  PostToolUse: { ...session, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/home/dev/src/warm-up/a.ts' }, tool_response: {}, tool_use_id: 'toolu_warm_up' },
  SessionEnd: { ...session, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' },
};

/**
 * For a test file whose hooks are not about their first start: V8's code cache of the hooks'
 * bundles (`<home>/cache/hook-code/`, src/hooks/run-hook-code.ts), made once for the file by one
 * run of each hook in a home of its own, is copied into each test's home, as a home has it after
 * its first hook of each kind. Without it, every hook process started before the first one exits
 * compiles its bundle (a burst of 64 compiles 64 times), ≈ 0.25 s of CPU a hook instead of
 * ≈ 0.16 s. The cache file's name carries the bundle's identity and Node's version, so the copy is
 * the one each hook would have written. A test of the cache itself, or of a disk too full for it
 * (test/spool-full-disk.test.ts), does not use this.
 */
export function useWarmHookCode(): (h: TempHome, hooks: readonly HookName[]) => Promise<void> {
  let scratch: TempHome | undefined;
  const warmed = new Map<HookName, Promise<void>>();
  afterAll(async () => {
    await scratch?.cleanup();
  });
  return async (h, hooks) => {
    scratch ??= tempHome();
    const from = join(scratch.paths.home, 'cache', 'hook-code');
    for (const hook of hooks) {
      if (!warmed.has(hook)) {
        const payload = payloads[hook];
        if (payload === undefined) throw new Error(`no warm-up payload for ${hook}`);
        warmed.set(hook, runHook(hook, payload, scratch.env).then(() => undefined));
      }
      await warmed.get(hook);
    }
    if (!existsSync(from)) return;
    // The home as engram makes it (0700), should this be the first thing in it.
    mkdirSync(h.paths.home, { recursive: true, mode: 0o700 });
    const to = join(h.paths.home, 'cache', 'hook-code');
    mkdirSync(to, { recursive: true });
    cpSync(from, to, { recursive: true });
  };
}
