import { existsSync } from 'node:fs';
import * as z from 'zod/mini';
import { mightBeCorrection } from '../capture/might-be-correction.js';
import { correctionNotice } from '../capture/correction-notice.js';
import { PROMPT_CAP, PromptSubmitted } from '../events/hook-events.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { askRecallEarly, promptRecall, type WorkerAnswer } from './prompt-recall.js';
import { hookMain, type HookSpec } from './run-hook.js';

const input = z.looseObject({ prompt: z.string() });

const spec: HookSpec<typeof input, WorkerAnswer> = {
  hook: 'UserPromptSubmit',
  input,
  // A prompt cut with stdin (past STDIN_KEEP) was longer by about the bytes dropped.
  toEvent: ({ prompt }, stdin) => {
    const chars = prompt.length + (stdin.cutField === 'prompt' ? stdin.cut : 0);
    return { definition: PromptSubmitted, data: { prompt: redactCapped(prompt, PROMPT_CAP), chars, truncated: chars > PROMPT_CAP } };
  },
  // Asked before the spool write, so the worker searches while this process writes.
  prepare: (paths, event, env, handoff) => askRecallEarly(paths, event, env, handoff?.question),
  // On the prompt as stored, not as typed: the memories projector runs the same detector on the
  // same text, so what this line announces is what the memory will say.
  context: async (paths, event, _env, early) => {
    const { prompt } = event.data as { prompt: string };
    const lines: string[] = [];
    // Most prompts skip this. The bundler keeps the detector in this hook's one file, but runs its
    // module (phrase tables and all, a few milliseconds of a hook's budget) only when imported.
    if (mightBeCorrection(prompt)) {
      const { detectCorrection } = await import('../capture/correction-detector.js');
      const correction = detectCorrection(prompt);
      // One stat, and only for a correction: the worker leaves this file while the log is broken.
      if (correction) lines.push(`${correctionNotice(correction, existsSync(paths.logBroken))}\n`);
    }
    lines.push(await promptRecall(paths, event, eventTime(event.ts), early ?? Promise.resolve(undefined)));
    return lines.join('');
  },
};

/** Given the stdin its entry read and the recall question it sent; without them it reads and asks itself. */
export const main = hookMain(spec);

/** Strength is decayed to the prompt's own time (ENGRAM_NOW pins it, as for every event). */
function eventTime(ts: string): Date {
  const at = new Date(ts);
  return Number.isNaN(at.getTime()) ? new Date() : at;
}
