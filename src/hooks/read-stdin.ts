import { fstatSync, readSync } from 'node:fs';

/**
 * Reads stdin to its end. Synchronous reads are cheapest, but a pipe may be non-blocking: on
 * EAGAIN the rest is read as a stream, after what already arrived. A terminal gives nothing.
 */
export async function readStdin(): Promise<Buffer> {
  // fstat, not process.stdin.isTTY: touching process.stdin loads the stream machinery, a
  // tenth of a hook's budget.
  try {
    if (fstatSync(0).isCharacterDevice()) return Buffer.alloc(0);
  } catch {
    return Buffer.alloc(0);
  }
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let read: number;
    try {
      read = readSync(0, buffer, 0, buffer.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw err;
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      break;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  return Buffer.concat(chunks);
}
