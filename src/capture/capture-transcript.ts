import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { EventData } from '../events/define-event.js';
import { NOTES_CAP, type TranscriptCaptured } from '../events/transcript-events.js';
import { capText } from '../redaction/redact-capped.js';
import { redactText } from '../redaction/redact.js';
import { ExcerptWindow } from './excerpt-window.js';
import { checkTranscriptPath } from './transcript-path-check.js';
import { readTranscript, type ReadTranscriptOptions, type SkipReason, type TranscriptPart } from './read-transcript.js';

/** The Stop hook's copy of the final answer (TurnStopped `answer`) and when it was recorded. */
export interface FinalAnswer {
  text: string;
  /** The TurnStopped event's `ts` (ISO). */
  at: string;
}

export interface CaptureOptions extends ReadTranscriptOptions {
  /**
   * The session's last Stop hook answer: ends the excerpt when the transcript has no assistant
   * text or only older text (the file lags the hook). Default: none.
   */
  finalAnswer?: FinalAnswer;
  /** Characters kept from the start. Default EXCERPT_HEAD (4,000). */
  head?: number;
  /** Characters kept from the end. Default EXCERPT_TAIL (26,000). */
  tail?: number;
  /** Most subagent files read beside the transcript. Default 200. */
  maxSubagentFiles?: number;
  /**
   * Claude Code's projects directory (`<CLAUDE_CONFIG_DIR>/projects`): a transcript (and its
   * subagent files) is read only when it resolves inside it (transcript-path-check.ts). Every
   * reader of a path from a hook passes it; left out only where the path is the caller's own.
   */
  projectsDir?: string;
}

export type TranscriptCapture = EventData<typeof TranscriptCaptured>;

const ANSWER_WINDOW = 40_000;

const SECTION = {
  user: '[user]',
  assistant: '[assistant]',
  summary: '[summary Claude Code wrote of the conversation before the compaction]',
  compaction: '[the conversation was compacted here]',
} as const;

/**
 * Reads a session's transcript into what TranscriptCaptured records: the main conversation's
 * user and assistant text, redacted, its head and tail; subagents (inline sidechain lines and
 * `<session>/subagents/agent-*.jsonl`) counted but left out. Never throws for what the files
 * hold or lack: what could not be read is counted and noted (no path at all, for a session the
 * hooks never told one, is a missing transcript). Rejects only when `signal` aborts.
 */
export async function captureTranscript(path: string | undefined, options: CaptureOptions = {}): Promise<TranscriptCapture> {
  const window = new ExcerptWindow(options.head, options.tail);
  let section: string | undefined;
  let lastAnswer: { text: string; at: string | undefined; closed: boolean } | undefined;
  const say = (heading: string, text: string) => {
    // Consecutive lines of one speaker (an answer is written a block per line) share a heading.
    if (heading !== section || heading === SECTION.summary) window.append(`${window.chars > 0 ? '\n\n' : ''}${heading}\n${text}`);
    else window.append(`\n\n${text}`);
    section = heading;
  };
  const onPart = (part: TranscriptPart) => {
    if (part.kind === 'compaction') {
      window.append(`${window.chars > 0 ? '\n\n' : ''}${SECTION.compaction}`);
      section = SECTION.compaction;
      return;
    }
    if (part.compactSummary) say(SECTION.summary, part.text);
    else say(SECTION[part.role], part.text);
    // The last answer is the assistant text since the user last said something (its last
    // ANSWER_WINDOW characters: a long autonomous run must not grow it without bound).
    if (part.role === 'assistant') {
      const text = lastAnswer && !lastAnswer.closed ? `${lastAnswer.text}\n\n${part.text}` : part.text;
      lastAnswer = { text: text.length > ANSWER_WINDOW ? text.slice(-ANSWER_WINDOW) : text, at: part.at, closed: false };
    } else if (lastAnswer) lastAnswer.closed = true;
  };

  const notes: string[] = [];
  const skipped = new Map<SkipReason, number>();
  const isJsonl = path !== undefined && path.endsWith('.jsonl');
  // Checked before anything is opened; the reason is kept, never a byte of what is there.
  const checked = isJsonl && options.projectsDir !== undefined ? await checkTranscriptPath(path, options.projectsDir) : undefined;
  const refused = checked !== undefined && !checked.ok && !checked.missing ? checked.reason : undefined;
  const main = isJsonl && refused === undefined ? await readTranscript(checked?.ok ? checked.path : path, onPart, options) : undefined;
  if (path === undefined) notes.push('no transcript path');
  else if (refused !== undefined) notes.push(refused);
  else if (!main) notes.push('the transcript path does not name a .jsonl file: not read');
  else {
    notes.push(...main.problems);
    addSkips(skipped, main.skipped, 'transcript', notes);
  }

  const lagging = endWithFinalAnswer(options.finalAnswer, lastAnswer, (text) => say(SECTION.assistant, text));
  if (lagging) notes.push(lastAnswer ? "the transcript's last answer was another and no newer than the Stop hook's: the hook's copy ends the excerpt" : "no answer in the transcript yet: the Stop hook's copy ends the excerpt");

  const subagents = isJsonl && main && !main.missing ? await readSubagents(checked?.ok ? checked.path : path, options, skipped, notes) : { files: 0, turns: 0 };
  const excerpt = window.finish();
  return {
    transcriptPath: path ?? '',
    excerpt: excerpt.text,
    cut: excerpt.cut,
    missing: main?.missing ?? true,
    lagging,
    counts: {
      lines: main?.lines ?? 0,
      userTurns: main?.userTurns ?? 0,
      assistantTurns: main?.assistantTurns ?? 0,
      chars: excerpt.chars,
      compactions: main?.compactions ?? 0,
      sidechainTurns: main?.sidechainTurns ?? 0,
      subagentFiles: subagents.files,
      subagentTurns: subagents.turns,
      skippedLines: [...skipped.values()].reduce((a, b) => a + b, 0),
    },
    notes: capNotes(notes),
  };
}

/**
 * Whether the Stop hook's answer must end the excerpt: the transcript has no answer, or its last
 * one is another and no newer than the hook's (then `append` has been called with it).
 */
function endWithFinalAnswer(
  final: FinalAnswer | undefined,
  last: { text: string; at: string | undefined } | undefined,
  append: (text: string) => void,
): boolean {
  if (!final || final.text.trim() === '') return false;
  if (last) {
    if (sameAnswer(last.text, final.text)) return false;
    const lastAt = last.at === undefined ? Number.NaN : Date.parse(last.at);
    // A transcript answer after the hook's is newer than the hook's copy: the file is not lagging.
    if (!Number.isNaN(lastAt) && lastAt > Date.parse(final.at)) return false;
  }
  append(final.text);
  return true;
}

/**
 * Whether the hook's answer is the transcript's last one. The hook's copy is redacted and capped,
 * and may be only the answer's last text block; the transcript's is raw, every block: look for the
 * start of the hook's copy in either end of the transcript's, redacted.
 */
function sameAnswer(transcript: string, hook: string): boolean {
  const head = hook.trim().slice(0, 100);
  const ends = transcript.length <= 20_000 ? [transcript] : [transcript.slice(0, 20_000), transcript.slice(-20_000)];
  return ends.some((end) => redactText(end).includes(head));
}

async function readSubagents(
  path: string,
  options: CaptureOptions,
  skipped: Map<SkipReason, number>,
  notes: string[],
): Promise<{ files: number; turns: number }> {
  const dir = join(dirname(path), basename(path, '.jsonl'), 'subagents');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /^agent-[^/]*\.jsonl$/.test(name)).sort();
  } catch {
    return { files: 0, turns: 0 };
  }
  const max = options.maxSubagentFiles ?? 200;
  if (names.length > max) {
    notes.push(`${names.length} subagent files: only the first ${max} were read`);
    names = names.slice(0, max);
  }
  let turns = 0;
  for (const name of names) {
    let file = join(dir, name);
    if (options.projectsDir !== undefined) {
      const checked = await checkTranscriptPath(file, options.projectsDir);
      if (!checked.ok) {
        notes.push(`${name}: ${checked.reason}`);
        continue;
      }
      file = checked.path;
    }
    const reading = await readTranscript(file, () => undefined, options);
    turns += reading.userTurns + reading.assistantTurns + reading.sidechainTurns;
    notes.push(...reading.problems.map((problem) => `${name}: ${problem}`));
    addSkips(skipped, reading.skipped, name, notes);
  }
  return { files: names.length, turns };
}

function addSkips(total: Map<SkipReason, number>, found: ReadonlyMap<SkipReason, number>, where: string, notes: string[]): void {
  for (const [reason, n] of found) {
    total.set(reason, (total.get(reason) ?? 0) + n);
    notes.push(`${where}: ${n} line${n === 1 ? '' : 's'} skipped (${reason})`);
  }
}

function capNotes(notes: string[]): string[] {
  const clean = notes.map((note) => capText(redactText(note), 300));
  if (clean.length <= NOTES_CAP) return clean;
  return [...clean.slice(0, NOTES_CAP - 1), `and ${clean.length - NOTES_CAP + 1} more notes`];
}
