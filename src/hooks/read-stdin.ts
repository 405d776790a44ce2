import { fstatSync, readSync } from 'node:fs';

/**
 * The most of a hook's stdin that is kept. Claude Code sends a prompt or a tool's response as
 * typed: a 50 MB paste must not cost seconds of parsing in a hook with a 5 s budget, when the
 * log keeps 20,000 characters of a prompt anyway. The rest is read (so the writer is never left
 * blocked on a full pipe) and counted, not kept.
 */
export const STDIN_KEEP = 4 * 1024 * 1024;

export interface StdinRead {
  /** The first STDIN_KEEP bytes at most. */
  readonly bytes: Buffer;
  /** Bytes read in all; more than `bytes` holds when stdin was cut. */
  readonly total: number;
  /** The last bytes read (up to TAIL_KEEP): where a cut string's JSON closes, so its length is told. */
  readonly tail?: Buffer;
}

const TAIL_KEEP = 64;

/**
 * Reads stdin to its end, keeping the first `keep` bytes. Synchronous reads are cheapest, but a
 * pipe may be non-blocking: on EAGAIN the rest is read as a stream, after what already arrived.
 * A terminal gives nothing.
 */
export async function readStdin(keep = STDIN_KEEP): Promise<StdinRead> {
  // fstat, not process.stdin.isTTY: touching process.stdin loads the stream machinery, a
  // tenth of a hook's budget.
  try {
    if (fstatSync(0).isCharacterDevice()) return { bytes: Buffer.alloc(0), total: 0 };
  } catch {
    return { bytes: Buffer.alloc(0), total: 0 };
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  let tail = Buffer.alloc(0);
  const take = (chunk: Buffer) => {
    total += chunk.length;
    tail = Buffer.concat([tail, chunk.subarray(Math.max(0, chunk.length - TAIL_KEEP))]).subarray(-TAIL_KEEP);
    if (kept >= keep) return;
    const part = chunk.length <= keep - kept ? chunk : chunk.subarray(0, keep - kept);
    chunks.push(Buffer.from(part));
    kept += part.length;
  };
  const buffer = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let read: number;
    try {
      read = readSync(0, buffer, 0, buffer.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw err;
      for await (const chunk of process.stdin) take(chunk as Buffer);
      break;
    }
    if (read === 0) break;
    take(buffer.subarray(0, read));
  }
  return { bytes: Buffer.concat(chunks), total, tail };
}
