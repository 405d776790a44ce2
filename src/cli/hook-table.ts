/**
 * The hooks engram registers with Claude Code, one table for `engram install`, the plugin's
 * hooks/hooks.json (test/install.test.ts keeps them equal), the tests and the demo.
 */
export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'Stop'
  | 'SubagentStop'
  | 'SessionEnd';

export interface HookSpec {
  readonly event: HookEvent;
  /** The built hook, `dist/hooks/<file>`. */
  readonly file: string;
  /** Claude Code counts hook timeouts in seconds, not milliseconds. */
  readonly timeoutSeconds: number;
  /** Tool events only; `*` is every tool. */
  readonly matcher?: string;
  readonly async?: boolean;
}

/**
 * Each hook only appends one spool file (~0.1 s, DESIGN.md "Performance budgets"), so a timeout is a
 * ceiling for a hook that hangs (cold disk, a stuck worker socket), never a budget to spend: short
 * enough that a hang costs the user seconds, not Claude Code's 600-second default, and ~50× what a
 * healthy hook takes.
 */
export const hookTable: readonly HookSpec[] = Object.freeze(
  ([
    // Once per session (and after compaction); prints the summary block and may start the worker.
    { event: 'SessionStart', file: 'session-start.cjs', timeoutSeconds: 10 },
    // Runs before every answer, so its ceiling is latency the user would feel on each prompt.
    { event: 'UserPromptSubmit', file: 'user-prompt-submit.cjs', timeoutSeconds: 5 },
    // Engram only records a tool call and never decides anything about it, so the hook can run off
    // the agent's path: async saves a Node start per tool call. It still lands long before the next
    // event it could be confused with, since every tool call is followed by a model round trip.
    { event: 'PostToolUse', file: 'post-tool-use.cjs', timeoutSeconds: 5, matcher: '*', async: true },
    { event: 'PostToolUseFailure', file: 'post-tool-use-failure.cjs', timeoutSeconds: 5, matcher: '*' },
    { event: 'PreCompact', file: 'pre-compact.cjs', timeoutSeconds: 5 },
    { event: 'Stop', file: 'stop.cjs', timeoutSeconds: 5 },
    { event: 'SubagentStop', file: 'subagent-stop.cjs', timeoutSeconds: 5 },
    // All SessionEnd hooks share a 1.5 s budget, which Claude Code raises to the largest SessionEnd
    // timeout in settings (up to 60 s). 1 s fits inside the budget instead of stretching everyone's
    // exit; a SessionEnd lost to it is caught up later as an idle session.
    { event: 'SessionEnd', file: 'session-end.cjs', timeoutSeconds: 1 },
  ] satisfies HookSpec[]).map((spec): HookSpec => Object.freeze(spec)),
);
