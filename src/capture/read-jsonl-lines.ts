import { createReadStream } from 'node:fs';

/** One line of a JSONL file, as read. */
export type JsonlLine =
  | {
    kind: 'line';
    text: string;
    /** False for a last line with no newline after it: maybe cut short. */
    ended: boolean;
    /** Bytes of the file it took, its newline included: how far a reader has come. */
    bytes: number;
  }
  | { kind: 'too-long'; bytes: number };

export interface JsonlLinesOptions {
  /** Read no byte past this offset (inclusive), as `createReadStream`'s `end`. Default: to the end. */
  end?: number;
  /** Longer lines are skipped whole (never held in memory). Default 16 MiB. */
  maxLineBytes?: number;
  /** Stops the read between chunks. */
  signal?: AbortSignal;
}

const NEWLINE = 0x0a;

/**
 * The lines of a file, streamed: never more than one line (at most `maxLineBytes`) and one chunk
 * in memory, whatever the file's size, so a transcript of hundreds of megabytes, or a binary
 * file with no newline at all, costs a chunk's memory. Lines are decoded as UTF-8 (invalid
 * bytes become U+FFFD); a CR before the newline is dropped. Opening errors reject at the first
 * `next()`.
 */
export async function* readJsonlLines(path: string, options: JsonlLinesOptions = {}): AsyncGenerator<JsonlLine> {
  const max = options.maxLineBytes ?? 16 * 1024 * 1024;
  const stream = createReadStream(path, { highWaterMark: 256 * 1024, signal: options.signal, end: options.end });
  let parts: Buffer[] = [];
  let held = 0;
  // Bytes of a line being skipped because it outgrew `max`; 0 while none is.
  let dropping = 0;
  const finish = (piece: Buffer, ended: boolean): JsonlLine | undefined => {
    if (dropping > 0) {
      const bytes = dropping + piece.length;
      dropping = 0;
      return { kind: 'too-long', bytes };
    }
    const whole = parts.length === 0 ? piece : Buffer.concat([...parts, piece]);
    parts = [];
    held = 0;
    if (whole.length > max) return { kind: 'too-long', bytes: whole.length };
    const end = whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
    return { kind: 'line', text: whole.toString('utf8', 0, end), ended, bytes: whole.length + (ended ? 1 : 0) };
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      const line = finish(chunk.subarray(start, nl), true);
      if (line) yield line;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) continue;
    if (dropping > 0) dropping += rest.length;
    else if (held + rest.length > max) {
      dropping = held + rest.length;
      parts = [];
      held = 0;
    } else {
      // A copy: the stream may reuse its buffer once this chunk is consumed.
      parts.push(Buffer.from(rest));
      held += rest.length;
    }
  }
  if (held > 0 || dropping > 0) {
    const line = finish(Buffer.alloc(0), false);
    if (line) yield line;
  }
}
