import type { EngramPaths } from '../paths.js';
import { alreadyRecalled } from '../recall/already-recalled.js';
import type { RecallRequest, RecallResult } from '../recall/recall.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { RECALL_TEXT_CHARS } from '../socket/socket-protocol.js';

/**
 * The worker's answer to the prompt hook's recall question. The prompt comes as typed (the hook's
 * entry asks before its redactor is loaded: prompt-handoff.ts), so it is redacted here before
 * anything reads it, as the hook redacts what it stores: recall reads what the log will hold,
 * and no signal (an embedder, a log line) ever sees a secret. What the session was already given
 * is left out.
 */
export async function answerRecall(
  recaller: { ask(request: RecallRequest): Promise<RecallResult> },
  request: { text: string; project: string; session: string },
  context: { paths: Pick<EngramPaths, 'views'>; now: Date; log: (line: string) => void },
): Promise<RecallResult> {
  const text = redactCapped(request.text, RECALL_TEXT_CHARS);
  const result = await recaller.ask({ text, project: request.project, now: context.now, exclude: alreadyRecalled(context.paths, request.session) });
  for (const problem of result.problems) context.log(`recall left a signal out: ${problem}`);
  return result;
}
