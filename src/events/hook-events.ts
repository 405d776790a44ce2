import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

/**
 * The events Claude Code's hooks append. Every string in them has been redacted in the hook
 * before it reached disk (DESIGN.md invariant 3); tool input is a pointer, never contents.
 */

/** Longest prompt kept in the log; the rest is counted in `chars`, not stored. */
export const PROMPT_CAP = 20_000;
/** Longest tool-input pointer (a command, path, URL or pattern). */
export const POINTER_CAP = 200;
/** Longest final answer kept from the Stop hook. */
export const ANSWER_CAP = 4_000;
/** Longest error text kept from a failed tool. */
export const ERROR_CAP = 500;

// Functions, as each event's `data` is: built only for the events a process reads or writes.
const pointer = () => z.string().check(z.maxLength(POINTER_CAP));
const shortText = () => z.string().check(z.maxLength(ERROR_CAP));

export const SessionStarted = defineEvent({
  type: 'SessionStarted',
  schemaVersion: 1,
  summary: 'A session started, resumed, was cleared, compacted or forked (SessionStart).',
  data: () => z.object({
    /** startup | resume | clear | compact | fork — kept as sent, the contract grows. */
    source: z.string().check(z.maxLength(40)),
    transcriptPath: z.optional(z.string()),
    model: z.optional(z.string().check(z.maxLength(120))),
  }),
});

export const PromptSubmitted = defineEvent({
  type: 'PromptSubmitted',
  schemaVersion: 2,
  summary: 'The user submitted a prompt (UserPromptSubmit); redacted, capped at PROMPT_CAP.',
  data: () => z.object({
    prompt: z.string().check(z.maxLength(PROMPT_CAP)),
    /** Length of the prompt as typed, before redaction and the cap. */
    chars: z.int().check(z.nonnegative()),
    truncated: z.boolean(),
  }),
});

export const ToolCalled = defineEvent({
  type: 'ToolCalled',
  schemaVersion: 1,
  summary: 'A tool call finished (PostToolUse); `ok` is false when its response reports an error.',
  data: () => z.object({
    tool: z.string().check(z.maxLength(200)),
    input: pointer(),
    ok: z.boolean(),
    toolUseId: z.optional(z.string().check(z.maxLength(200))),
  }),
});

export const ToolFailed = defineEvent({
  type: 'ToolFailed',
  schemaVersion: 1,
  summary: 'A tool call failed (PostToolUseFailure); the error is redacted and capped.',
  data: () => z.object({
    tool: z.string().check(z.maxLength(200)),
    input: pointer(),
    error: shortText(),
    interrupted: z.optional(z.boolean()),
    toolUseId: z.optional(z.string().check(z.maxLength(200))),
  }),
});

export const CompactionStarted = defineEvent({
  type: 'CompactionStarted',
  schemaVersion: 1,
  summary: 'Claude Code is about to compact the context (PreCompact).',
  data: () => z.object({
    /** manual | auto */
    trigger: z.string().check(z.maxLength(40)),
  }),
});

export const TurnStopped = defineEvent({
  type: 'TurnStopped',
  schemaVersion: 2,
  summary: 'The agent finished answering (Stop); the answer redacted and capped at ANSWER_CAP.',
  data: () => z.object({
    stopHookActive: z.boolean(),
    /** Length of the answer as sent, before redaction and the cap. */
    answerChars: z.int().check(z.nonnegative()),
    /**
     * The start of `last_assistant_message`: the transcript file lags the hook, so this is the
     * surest copy of the final answer the transcript capture has. '' when none was sent (and in
     * every event of schemaVersion 1, which kept only the length).
     */
    answer: z.string().check(z.maxLength(ANSWER_CAP)),
  }),
});

export const SubagentStopped = defineEvent({
  type: 'SubagentStopped',
  schemaVersion: 1,
  summary: 'A subagent finished (SubagentStop).',
  data: () => z.object({
    agentType: z.optional(z.string().check(z.maxLength(200))),
    agentTranscriptPath: z.optional(z.string()),
  }),
});

export const SessionEnded = defineEvent({
  type: 'SessionEnded',
  schemaVersion: 1,
  summary: 'The session ended (SessionEnd): clear, resume, logout, prompt_input_exit, other.',
  data: () => z.object({
    reason: z.string().check(z.maxLength(40)),
    transcriptPath: z.optional(z.string()),
  }),
});

export const HookInputRejected = defineEvent({
  type: 'HookInputRejected',
  schemaVersion: 1,
  summary: 'A hook got stdin it could not read; kept, redacted, so `engram doctor` can show it.',
  data: () => z.object({
    hook: z.string().check(z.maxLength(40)),
    reason: z.string().check(z.maxLength(500)),
    /**
     * What arrived, as an outline: top-level keys with their types and sizes, identifier fields
     * (session, tool name) redacted, and a tool call's pointer; never raw stdin, which holds tool
     * output and file contents.
     */
    excerpt: z.string().check(z.maxLength(2000)),
    bytes: z.int().check(z.nonnegative()),
  }),
});

export const hookEvents = [
  SessionStarted,
  PromptSubmitted,
  ToolCalled,
  ToolFailed,
  CompactionStarted,
  TurnStopped,
  SubagentStopped,
  SessionEnded,
  HookInputRejected,
] as const;
