import { stat } from 'node:fs/promises';
import { messageText, transcriptLine, transcriptMessage } from './transcript-line.js';
import { parseJsonlLine } from './parse-jsonl-line.js';
import { readJsonlLines } from './read-jsonl-lines.js';

/** Something said in the conversation, or the point where it was compacted. */
export type TranscriptPart =
  | {
    kind: 'turn';
    role: 'user' | 'assistant';
    text: string;
    /** The line's timestamp, when it had one. */
    at: string | undefined;
    /** The summary Claude Code wrote of everything before a compaction, not something said. */
    compactSummary: boolean;
  }
  | { kind: 'compaction'; at: string | undefined };

/** Why a line was not read; each is counted. */
export type SkipReason = 'not JSON' | 'cut short' | 'not a transcript line' | 'unreadable message' | 'too long';

export interface TranscriptReading {
  /** The file could not be opened (missing, a directory, unreadable). */
  missing: boolean;
  lines: number;
  userTurns: number;
  assistantTurns: number;
  compactions: number;
  /** Text lines flagged `isSidechain`: a subagent's, written inline. Not passed on. */
  sidechainTurns: number;
  skipped: Map<SkipReason, number>;
  /** What went wrong beyond single lines (opening or reading the file). */
  problems: string[];
}

export interface ReadTranscriptOptions {
  /** Longer lines are skipped (a pasted image, a huge tool result). Default 16 MiB. */
  maxLineBytes?: number;
  signal?: AbortSignal;
}

/**
 * Streams a Claude Code transcript and hands each piece of main-chain conversation to `onPart`,
 * in file order. Never throws for what is in the file or whether it is there: a missing file,
 * a corrupt or cut-short line, binary junk are counted and reported in the reading; only an
 * aborted `signal` rejects.
 */
export async function readTranscript(
  path: string,
  onPart: (part: TranscriptPart) => void,
  options: ReadTranscriptOptions = {},
): Promise<TranscriptReading> {
  const reading: TranscriptReading = {
    missing: false, lines: 0, userTurns: 0, assistantTurns: 0, compactions: 0, sidechainTurns: 0,
    skipped: new Map(), problems: [],
  };
  const skip = (reason: SkipReason) => reading.skipped.set(reason, (reading.skipped.get(reason) ?? 0) + 1);
  // A compaction's summary is the user line right after its boundary; older versions flag it only.
  let afterBoundary = false;
  try {
    // A device, a pipe or a directory named like a transcript is not read: /dev/zero never ends.
    // A file is read as far as it went when the read began; Claude Code may still be appending.
    const file = await stat(path);
    if (!file.isFile()) {
      reading.missing = true;
      reading.problems.push('the transcript path is not a regular file: not read');
      return reading;
    }
    if (file.size === 0) return reading;
    for await (const raw of readJsonlLines(path, { ...options, end: file.size - 1 })) {
      const line = parseJsonlLine(raw, transcriptLine);
      if (line.kind === 'empty') continue;
      reading.lines++;
      if (line.kind === 'skip') {
        skip(line.reason === 'invalid' ? 'not a transcript line' : line.reason);
        continue;
      }
      const { type, timestamp: at } = line.data;
      if (type === 'system' && line.data.subtype === 'compact_boundary') {
        reading.compactions++;
        afterBoundary = true;
        onPart({ kind: 'compaction', at });
        continue;
      }
      if (type !== 'user' && type !== 'assistant') continue;
      const message = transcriptMessage.safeParse(line.data.message);
      if (!message.success) {
        skip('unreadable message');
        continue;
      }
      const compactSummary = type === 'user' && (line.data.isCompactSummary === true || afterBoundary);
      if (type === 'user') afterBoundary = false;
      if (line.data.isMeta === true && !compactSummary) continue;
      // Not the model's words: Claude Code's own stand-ins for an answer that failed.
      if (type === 'assistant' && (line.data.isApiErrorMessage === true || message.data.model === '<synthetic>')) continue;
      const text = messageText(message.data);
      if (text.trim() === '') continue;
      if (line.data.isSidechain === true) {
        reading.sidechainTurns++;
        continue;
      }
      if (type === 'user' && !compactSummary) reading.userTurns++;
      if (type === 'assistant') reading.assistantTurns++;
      onPart({ kind: 'turn', role: type, text, at, compactSummary });
    }
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (reading.lines === 0) reading.missing = true;
    reading.problems.push(
      code === 'ENOENT' ? 'no transcript at the path' : `transcript could not be read (${code}) after ${reading.lines} lines`,
    );
  }
  return reading;
}
