import { z } from 'zod';

/**
 * The worker's local socket speaks newline-delimited JSON. Every line that crosses it is
 * checked here: the other end is another process, and possibly another build of engram.
 */
export const requestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('stop') }),
  z.object({
    op: z.literal('command'),
    name: z.string().max(40),
    args: z.record(z.string(), z.unknown()),
    /** Whether the CLI's stderr is a terminal, so progress is worth sending. */
    tty: z.boolean(),
  }),
]);
export type Request = z.infer<typeof requestSchema>;

export const responseSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('pong'), pid: z.number().int(), head: z.number().int(), startedAt: z.string() }),
  z.object({ t: z.literal('out'), text: z.string() }),
  z.object({ t: z.literal('err'), text: z.string() }),
  z.object({ t: z.literal('progress'), done: z.number(), total: z.number() }),
  z.object({ t: z.literal('exit'), code: z.number().int() }),
]);
export type Response = z.infer<typeof responseSchema>;

/** Splits a stream into lines, each parsed by `schema`; a bad line is reported, not thrown. */
export function lineReader<T>(schema: z.ZodType<T>, onMessage: (message: T) => void, onBad: (reason: string) => void) {
  let buffer = '';
  return (chunk: Buffer | string): void => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        onBad(`not JSON: ${line.slice(0, 80)}`);
        continue;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) onMessage(parsed.data);
      else onBad(`unexpected message: ${line.slice(0, 80)}`);
    }
  };
}
