import type { RecallQuestion } from './recall-question.js';

/** What a hook's entry did before its bundle ran (prompt-hook-entry.ts), handed on to runHook. */
export interface HookHandoff {
  /** The hook's stdin, read whole. */
  readonly stdin: Buffer;
  /** The prompt's recall question, already sent to the worker; absent when none was asked. */
  readonly question?: RecallQuestion | undefined;
}
