import { resolvePaths } from '../paths.js';
import { canRecall, queryWords } from '../indexes/query-words.js';
import type { HookHandoff } from './hook-handoff.js';
import { readStdin, type StdinRead } from './read-stdin.js';
import { parseStdin } from './parse-stdin.js';
import { askRecallQuestion, type RecallQuestion } from './recall-question.js';
import { RECALL_TEXT_CHARS, recallWaitMs } from './recall-wait.js';

/**
 * The prompt hook's first moves, made by its entry before the bundle is loaded: stdin read, and
 * the recall question sent to the worker, which embeds the prompt and searches while this
 * process compiles and runs the bundle (tens of ms each, now side by side on two cores).
 *
 * The prompt goes as typed, not redacted (the redactor lives in the bundle): over the worker's
 * own socket, to a process that redacts it before anything else (worker.ts) and never writes it.
 * Undefined when the hook is switched off; never throws: whatever fails here, the bundle does
 * again and reports as a hook reports.
 */
export async function promptHandoff(env: NodeJS.ProcessEnv): Promise<HookHandoff | undefined> {
  // ENGRAM_DISTILLING is set by the distiller around its own `claude -p` call.
  if (env.ENGRAM_DISABLE === '1' || env.ENGRAM_DISTILLING === '1') return undefined;
  let stdin: StdinRead;
  try {
    stdin = await readStdin();
  } catch {
    return undefined;
  }
  return { stdin, question: await firstQuestion(stdin, env) };
}

async function firstQuestion(stdin: StdinRead, env: NodeJS.ProcessEnv): Promise<RecallQuestion | undefined> {
  try {
    const payload = parseStdin(stdin).value as { prompt?: unknown; cwd?: unknown; session_id?: unknown } | null;
    const prompt = payload?.prompt;
    const cwd = payload?.cwd;
    const session = payload?.session_id;
    if (typeof prompt !== 'string' || typeof cwd !== 'string' || typeof session !== 'string') return undefined;
    // What the worker is sent, and all it reads; a 5 MB prompt is not analysed whole here.
    const text = prompt.slice(0, RECALL_TEXT_CHARS);
    // Most short prompts ("yes", "go on") stop here, before the socket module is even loaded.
    if (!canRecall(queryWords(text))) return undefined;
    const budget = recallWaitMs(env);
    if (budget === 0) return undefined;
    return await askRecallQuestion(resolvePaths(env), { text, project: cwd, session }, budget);
  } catch {
    return undefined;
  }
}
