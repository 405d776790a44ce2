import type { StdinRead } from './read-stdin.js';
import type { RecallQuestion } from './recall-question.js';

/** What a hook's entry did before its bundle ran (prompt-hook-entry.ts), handed on to runHook. */
export interface HookHandoff {
  /** The hook's stdin, read to its end (its first STDIN_KEEP bytes kept). */
  readonly stdin: StdinRead;
  /** The prompt's recall question, already sent to the worker; absent when none was asked. */
  readonly question?: RecallQuestion | undefined;
}
