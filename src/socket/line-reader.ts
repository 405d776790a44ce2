import { StringDecoder } from 'node:string_decoder';

// Apart from socket-protocol.ts's schemas (and so from zod): askWorker reads the worker's lines
// with it and checks them by hand first (response-by-hand.ts), so the bin's front end loads no
// zod (issue 22).

/** A request is one short line. */
export const MAX_REQUEST_CHARS = 64 * 1024;
/**
 * An answer line carries at most one batch of `log dump` (500 events, each prompt capped at
 * about 20k characters), so far below this; a longer line is a broken or hostile peer.
 */
export const MAX_RESPONSE_CHARS = 64 * 1024 * 1024;

/** What lineReader checks each line with: a zod schema, or anything that answers the same way. */
export interface LineSchema<T> {
  safeParse(json: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ message: string }> } };
}

/** Every line of JSON as it is, for a reader that judges the lines itself (askWorker). */
export const anyJson: LineSchema<unknown> = { safeParse: (json) => ({ success: true, data: json }) };

/** How a line of JSON that the schema refuses is reported. */
export function unexpectedMessage(error: { issues: ReadonlyArray<{ message: string }> }): string {
  return `unexpected message (${error.issues[0]?.message ?? 'invalid'})`;
}

/**
 * Splits a byte stream into lines, each parsed by `schema`; a bad line is reported, not thrown.
 * Bytes are decoded as UTF-8 across chunk boundaries (a character split between two chunks is
 * kept whole), and a line longer than `maxLineChars` is reported and skipped to its end rather
 * than held in memory.
 */
export function lineReader<T>(
  schema: LineSchema<T>,
  onMessage: (message: T) => void,
  onBad: (reason: string) => void,
  maxLineChars: number,
) {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  let pendingChars = 0;
  // Inside a line that was already reported too long: drop everything up to its newline.
  let skipping = false;
  const emit = (line: string) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      // Not the line itself: whatever the peer sent stays out of logs.
      onBad(`a line of ${line.length} characters is not JSON`);
      return;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) onMessage(parsed.data);
    else onBad(unexpectedMessage(parsed.error));
  };
  return (chunk: Buffer | string): void => {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n')) {
      const tail = text.slice(0, newline);
      text = text.slice(newline + 1);
      if (skipping) {
        skipping = false;
      } else if (pendingChars + tail.length > maxLineChars) {
        onBad(`a line longer than ${maxLineChars} characters`);
      } else {
        const line = pending.length > 0 ? pending.join('') + tail : tail;
        emit(line);
      }
      pending = [];
      pendingChars = 0;
    }
    if (skipping || text === '') return;
    if (pendingChars + text.length > maxLineChars) {
      onBad(`a line longer than ${maxLineChars} characters`);
      pending = [];
      pendingChars = 0;
      skipping = true;
      return;
    }
    pending.push(text);
    pendingChars += text.length;
  };
}
