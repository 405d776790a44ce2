import { BUILD_ID } from '../build-id.js';
import { MAX_LEFT_OUT, MemoriesRecalled } from '../events/recall-events.js';
import type { Envelope } from '../events/envelope.js';
import type { EngramPaths } from '../paths.js';
import { formatRecalled } from '../recall/format-recalled.js';
import { canRecall, queryWords } from '../indexes/query-words.js';
import type { RecallResult } from '../recall/recall.js';
import { askWorkerRecall, parseRecallAnswer } from './ask-worker-recall.js';
import type { RecallQuestion } from './recall-question.js';
import { RECALL_TEXT_CHARS, recallWaitMs } from './recall-wait.js';
import { writeSpoolFile } from './write-spool-file.js';

const FNV_PRIME = 0x01000193;

/**
 * The worker's answer for a prompt, asked as soon as the prompt's event is built: the worker
 * embeds and searches while this process writes the spool file and checks the worker. 'skip':
 * the prompt has too few content words to recall anything (most short prompts, "yes", "go on",
 * stop here, before any file or socket); undefined: no answer in time.
 */
export type WorkerAnswer = Promise<Pick<RecallResult, 'memories' | 'leftOut'> | undefined | 'skip'>;

export function askRecallEarly(paths: EngramPaths, prompt: Envelope, env: NodeJS.ProcessEnv, asked?: RecallQuestion): WorkerAnswer {
  const text = (prompt.data as { prompt: string }).prompt;
  if (!canRecall(queryWords(text))) return Promise.resolve('skip');
  // Asked by the entry already, with the prompt as typed (the worker redacts it as this did).
  if (asked) return asked.wait().then(parseRecallAnswer);
  const budget = recallWaitMs(env);
  if (budget === 0) return Promise.resolve(undefined);
  return askWorkerRecall(paths, { text: text.slice(0, RECALL_TEXT_CHARS), project: prompt.project, session: prompt.session }, budget);
}

/**
 * The memories a prompt recalls, as lines for its context: the worker's warm pipeline (BM25,
 * vectors, graph) when it answered within the wait, else BM25 over the index files here, leaving
 * out what the session already got either way. What is printed is recorded (MemoriesRecalled,
 * its id derived from the prompt's event, through the spool like every hook event), so the
 * session is not given it again. '' when nothing is recalled.
 */
export async function promptRecall(paths: EngramPaths, prompt: Envelope, now: Date, early: WorkerAnswer): Promise<string> {
  const answer = await early;
  if (answer === 'skip') return '';
  const text = (prompt.data as { prompt: string }).prompt;
  let via: 'worker' | 'fallback' = 'worker';
  let result: Pick<RecallResult, 'memories' | 'leftOut'> | undefined = answer;
  if (result === undefined) {
    via = 'fallback';
    result = await fallbackRecall(paths, prompt, text, now);
  }
  const { memories, leftOut } = result;
  if (memories.length === 0) return '';
  // Why each was recalled and what the cut left out, for the viewer's recall traces.
  const data = {
    memoryIds: memories.map((memory) => memory.id),
    promptHash: fnv1a(text),
    via,
    signals: memories.map((memory) => [...memory.signals]),
    leftOut: leftOut.slice(0, MAX_LEFT_OUT).map(({ id, score, signals, why }) => ({ id, score, signals: [...signals], why })),
  };
  // Checked here as ingest will check it: a record the log would refuse must not go unsaid.
  if (!MemoriesRecalled.data.safeParse(data).success) throw new Error(`recall returned memories the log cannot record: ${memories.length} ids`);
  if (prompt.session !== '') {
    writeSpoolFile(paths, {
      id: `${prompt.id}.recalled`,
      type: MemoriesRecalled.type,
      schemaVersion: MemoriesRecalled.schemaVersion,
      ts: prompt.ts,
      session: prompt.session,
      project: prompt.project,
      data,
      producer: BUILD_ID,
    });
  }
  return formatRecalled(memories);
}

/**
 * BM25 over the projected index files, in this process. Its modules are imported here, not at
 * the top: the bundler keeps them in the hook's file but runs them only when the worker did not
 * answer, so a warm worker's prompt does not pay for them.
 */
async function fallbackRecall(paths: EngramPaths, prompt: Envelope, text: string, now: Date): Promise<Pick<RecallResult, 'memories' | 'leftOut'>> {
  const [{ recall }, { openRecallIndexes, closeRecallIndexes }, { alreadyRecalled }] = await Promise.all([
    import('../recall/recall.js'),
    import('../recall/recall-indexes.js'),
    import('../recall/already-recalled.js'),
  ]);
  const indexes = openRecallIndexes(paths, prompt.project);
  try {
    return await recall({ indexes }, { text, project: prompt.project, now, exclude: alreadyRecalled(paths, prompt.session) });
  } finally {
    closeRecallIndexes(indexes);
  }
}

// Not node:crypto: the hook's budget (see paths.ts).
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
