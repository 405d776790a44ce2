import * as z from 'zod/mini';
import { MAX_LEFT_OUT } from '../events/recall-events.js';
import type { EngramPaths } from '../paths.js';
import type { RecallResult } from '../recall/recall.js';
import { askRecallQuestion } from './recall-question.js';

const answer = z.object({
  t: z.literal('recalled'),
  memories: z.array(
    z.object({
      id: z.string().check(z.maxLength(200)),
      file: z.string().check(z.maxLength(8192)),
      name: z.string().check(z.maxLength(1000)),
      description: z.string().check(z.maxLength(4000)),
      score: z.number(),
      signals: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(10)),
    }),
  ).check(z.maxLength(10)),
  /** Absent from workers that predate the viewer's recall traces. */
  leftOut: z.optional(
    z.array(
      z.object({
        id: z.string().check(z.maxLength(200)),
        score: z.number(),
        signals: z.array(z.string().check(z.maxLength(300))).check(z.maxLength(10)),
        why: z.enum(['below-cut', 'past-limit', 'already-recalled']),
      }),
    ).check(z.maxLength(MAX_LEFT_OUT)),
  ),
});

/** The worker's answer line checked: undefined when it is not one (another build, a torn line). */
export function parseRecallAnswer(line: string | undefined): Pick<RecallResult, 'memories' | 'leftOut'> | undefined {
  if (line === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const checked = answer.safeParse(parsed);
  return checked.success ? { memories: checked.data.memories, leftOut: checked.data.leftOut ?? [] } : undefined;
}

/**
 * Asks the running worker for a prompt's recall over its socket (the `recall` op of
 * socket-protocol.ts, checked here with zod/mini so the hook does not load full zod), giving up
 * after `budgetMs`. Resolves undefined when there is no worker, it is slow, or its answer is not
 * one: the caller falls back to the index files.
 */
export async function askWorkerRecall(
  paths: Pick<EngramPaths, 'socket' | 'socketDir'>,
  request: { text: string; project: string; session: string },
  budgetMs: number,
): Promise<Pick<RecallResult, 'memories' | 'leftOut'> | undefined> {
  const question = await askRecallQuestion(paths, request, budgetMs);
  return parseRecallAnswer(await question.wait());
}
