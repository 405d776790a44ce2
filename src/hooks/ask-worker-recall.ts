import * as z from 'zod/mini';
import { MAX_LEFT_OUT } from '../events/recall-events.js';
import type { EngramPaths } from '../paths.js';
import type { RecallResult } from '../recall/recall.js';

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

/** Longest answer line read: ten memories' lines are far below it. */
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * Asks the running worker for a prompt's recall over its socket (the `recall` op of
 * socket-protocol.ts, spoken here with zod/mini so the hook does not load full zod), giving up
 * after `budgetMs`. Resolves undefined when there is no worker, it is slow, or its answer is not
 * one: the caller falls back to the index files.
 */
export async function askWorkerRecall(
  paths: Pick<EngramPaths, 'socket'>,
  request: { text: string; project: string; session: string },
  budgetMs: number,
): Promise<Pick<RecallResult, 'memories' | 'leftOut'> | undefined> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (result: Pick<RecallResult, 'memories' | 'leftOut'> | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish(undefined), budgetMs);
    const socket = connect(paths.socket);
    socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'recall', ...request })}\n`));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      if (newline < 0) {
        if (bytes > MAX_ANSWER_BYTES) finish(undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(all.toString('utf8', 0, newline));
      } catch {
        return finish(undefined);
      }
      const checked = answer.safeParse(parsed);
      finish(checked.success ? { memories: checked.data.memories, leftOut: checked.data.leftOut ?? [] } : undefined);
    });
    socket.on('error', () => finish(undefined));
    socket.on('close', () => finish(undefined));
  });
}
