/**
 * How long the prompt hook waits for the worker's recall, in ms (ENGRAM_RECALL_WAIT_MS). Default
 * 150: a warm worker answers in a few ms, or a few tens with the embedder; past this the hook
 * answers from the index files itself. 0 never asks.
 */
export const RECALL_WAIT_MS = 150;

/** Characters of the prompt sent to the worker (socket-protocol.ts RECALL_TEXT_CHARS). */
export const RECALL_TEXT_CHARS = 8000;

/** ENGRAM_RECALL_WAIT_MS when it is a number ≥ 0, else RECALL_WAIT_MS. */
export function recallWaitMs(env: NodeJS.ProcessEnv): number {
  const wait = Number(env.ENGRAM_RECALL_WAIT_MS);
  return env.ENGRAM_RECALL_WAIT_MS !== undefined && env.ENGRAM_RECALL_WAIT_MS !== '' && Number.isFinite(wait) && wait >= 0 ? wait : RECALL_WAIT_MS;
}
