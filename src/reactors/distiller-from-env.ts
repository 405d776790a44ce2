import { join } from 'node:path';
import { captureTranscript } from '../capture/capture-transcript.js';
import { parseDistillAnswer } from '../distill/distill-answer.js';
import { buildDistillPrompt } from '../distill/distill-prompt.js';
import { llmAvailable } from '../distill/llm-available.js';
import { LlmRunner } from '../distill/llm-runner.js';
import type { EngramPaths } from '../paths.js';
import { redactCapped } from '../redaction/redact-capped.js';
import type { DistillerDeps, DistillerOptions } from './distiller.js';

/** Longest failure detail or note kept. */
const DETAIL_CAP = 2000;

/**
 * The distiller as this environment configures it: `ENGRAM_DISTILLER=off` runs none; the LLM is
 * `ENGRAM_LLM_CMD` or `claude` on PATH, else there is none and episodes come from the trace;
 * `ENGRAM_LLM_TIMEOUT_MS` (default 120000) bounds one call; `ENGRAM_DISTILL_PAUSE_MS` (default
 * DISTILL_PAUSE_MS) spaces one call from the next. One LlmRunner per process, so two
 * calls never overlap.
 */
/**
 * The distiller's default pause after an LLM call, in ms: 10 s. A live session ends now and then
 * and never waits on it; a backlog (a backfill of months of sessions) is spread out rather than
 * fired back to back on the user's LLM account. `ENGRAM_DISTILL_PAUSE_MS=0` runs it flat out.
 */
export const DISTILL_PAUSE_MS = 10_000;

export function distillerFromEnv(env: NodeJS.ProcessEnv, paths: EngramPaths): { deps: DistillerDeps; options?: DistillerOptions } | undefined {
  if (env.ENGRAM_DISTILLER === 'off') return undefined;
  const pauseMs = env.ENGRAM_DISTILL_PAUSE_MS === undefined || env.ENGRAM_DISTILL_PAUSE_MS === '' ? DISTILL_PAUSE_MS : Number(env.ENGRAM_DISTILL_PAUSE_MS);
  return {
    deps: {
      capture: async (path) => {
        if (path === undefined) return { excerpt: '', notes: ['no transcript path was recorded for this session'] };
        const captured = await captureTranscript(path, { projectsDir: join(paths.claude, 'projects') });
        return { excerpt: captured.excerpt, notes: captured.notes };
      },
      llm: llmFromEnv(env, paths),
      prompt: (inputs) => buildDistillPrompt({ transcript: inputs.excerpt, trace: inputs.trace, index: inputs.index }),
      parse: (stdout) => {
        const parsed = parseDistillAnswer(stdout);
        if (!parsed.ok) return parsed;
        return { ok: true, answer: parsed.answer, notes: parsed.notes.map((note) => `${note.code} at ${note.at}: ${note.detail}`.slice(0, 300)) };
      },
      redact: (text) => redactCapped(text, 64_000),
    },
    ...(Number.isFinite(pauseMs) && pauseMs > 0 ? { options: { pauseMs } } : {}),
  };
}

/**
 * The LLM as this environment configures it (`ENGRAM_LLM_CMD`, else `claude` on PATH, else
 * none), bounded by `ENGRAM_LLM_TIMEOUT_MS` (default 120000): the distiller's, and the post-turn
 * audit's. Its failures come back redacted, never thrown.
 */
export function llmFromEnv(env: NodeJS.ProcessEnv, paths: EngramPaths): DistillerDeps['llm'] {
  if (!llmAvailable(env)) return undefined;
  const timeout = Number(env.ENGRAM_LLM_TIMEOUT_MS);
  // The distiller's and the post-turn audit's (ENGRAM_AUDIT=1) runners are two, and their calls
  // still wait in one queue and never overlap (llm-runner.ts).
  const runner = new LlmRunner({ env, scratchRoot: join(paths.home, 'scratch'), ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}) });
  return {
    run: async (prompt, signal) => {
      const result = await runner.run(prompt, { signal });
      if (result.ok) return { ok: true, stdout: result.stdout };
      const detail = `${result.command}: ${result.reason}${result.exitCode === null ? '' : ` (exit ${result.exitCode})`}${result.stderr ? `: ${result.stderr}` : ''}`;
      return { ok: false, reason: result.reason, detail: redactCapped(detail, DETAIL_CAP) };
    },
  };
}
