import { mkdirSync, writeSync } from 'node:fs';
import { appendRotated, HOOKS_LOG_ROTATION } from '../append-rotated.js';
import { BUILD_ID } from '../build-id.js';
import { describeJsonError } from '../describe-json-error.js';
import * as z from 'zod/mini';
import type { EventDefinition } from '../events/define-event.js';
import { describeIssues } from '../events/describe-issues.js';
import type { Envelope } from '../events/envelope.js';
import { newEventId, wallMicros } from '../events/event-id.js';
import { isoTime } from '../events/iso-time.js';
import { HookInputRejected } from '../events/hook-events.js';
import { resolvePaths, type EngramPaths } from '../paths.js';
import { ensureWorker } from '../launch/ensure-worker.js';
import { runsAsPlugin } from '../launch/plugin-layout.js';
import { settingsHooksPresent } from './settings-hooks-present.js';
import { payloadOutline } from '../redaction/payload-outline.js';
import { redactEventData } from '../redaction/redact-event-data.js';
import { redactText } from '../redaction/redact.js';
import type { HookHandoff } from './hook-handoff.js';
import { parseStdin } from './parse-stdin.js';
import { readStdin, type StdinRead } from './read-stdin.js';
import { toolInputPointer } from '../capture/tool-input-pointer.js';
import { writeSpoolFile } from './write-spool-file.js';

/** Fields every Claude Code hook sends. Unknown fields are kept out, never refused. */
const commonInput = z.looseObject({
  session_id: z.string().check(z.minLength(1), z.maxLength(200)),
  cwd: z.string().check(z.minLength(1), z.maxLength(4096)),
  transcript_path: z.optional(z.string()),
  hook_event_name: z.optional(z.string()),
});

export type CommonInput = z.infer<typeof commonInput>;

/** What a hook's event may need to know of its stdin beyond the fields. */
export interface StdinFacts {
  /**
   * Bytes of stdin past STDIN_KEEP, read and dropped: the field `cutField` names (a string) was
   * cut there, so it was longer than it reads by about this much.
   */
  readonly cut: number;
  readonly cutField?: string | undefined;
}

export interface HookEventBody {
  definition: EventDefinition;
  data: unknown;
  settled?: readonly string[];
}

export interface HookSpec<I extends z.ZodMiniType, P = undefined> {
  /** Claude Code's name for the hook event. */
  hook: string;
  /** The hook's own fields, beside the common ones. */
  input: I;
  /**
   * Normalizes and redacts the input into the event this hook appends. `settled` names the
   * top-level fields of `data` made by `redactCapped`: the last pass does not redact them again.
   */
  toEvent(input: z.infer<I> & CommonInput, stdin: StdinFacts): HookEventBody;
  /**
   * What Claude Code should add to the context (it adds plain stdout of UserPromptSubmit and
   * SessionStart hooks), printed once the event is safely in the spool: from the event as stored
   * (redacted, capped) and small projected files, never fetched from the worker. '' or undefined
   * prints nothing.
   */
  context?(paths: EngramPaths, event: Readonly<Envelope>, env: NodeJS.ProcessEnv, prepared: P | undefined): string | undefined | Promise<string | undefined>;
  /**
   * Work for `context` started as soon as the event is built, before the spool write, so the two
   * overlap: the prompt hook's question to the worker. Its result reaches `context` only once the
   * event is in the spool; a rejection is caught there, never left unhandled.
   */
  prepare?(paths: EngramPaths, event: Readonly<Envelope>, env: NodeJS.ProcessEnv, handoff: HookHandoff | undefined): P;
}

/**
 * A hook's `main`: what its entry (run-hook-code.ts, prompt-hook-entry.ts) runs once the bundle
 * is loaded, with what the entry already did (the prompt hook's stdin and recall question). `env`
 * is for a test that runs the built bundle in its own process (test/support/hook-here.ts).
 */
export function hookMain<I extends z.ZodMiniType, P = undefined>(spec: HookSpec<I, P>): (handoff?: HookHandoff, env?: NodeJS.ProcessEnv) => Promise<void> {
  return (handoff, env = process.env) => runHook(spec, env, handoff);
}

/**
 * The whole life of a hook process: read stdin, build one redacted event, write it as one spool
 * file, make sure a worker will ingest it, print its context if it has one, exit 0. Whatever goes
 * wrong is one line in hooks.log and nothing on stdout (DESIGN.md invariant 1).
 */
export async function runHook<I extends z.ZodMiniType, P = undefined>(spec: HookSpec<I, P>, env = process.env, handoff?: HookHandoff): Promise<void> {
  process.exitCode = 0;
  // ENGRAM_DISTILLING is set by the distiller around its own `claude -p` call.
  if (env.ENGRAM_DISABLE === '1' || env.ENGRAM_DISTILLING === '1') return;
  let paths: EngramPaths | undefined;
  try {
    paths = resolvePaths(env);
    // The plugin's hooks beside `engram install`'s hooks: those record, these stand down.
    if (runsAsPlugin() && settingsHooksPresent(paths.claude)) return;
    const raw = handoff?.stdin ?? (await readStdin());
    const event = buildEvent(spec, raw, env);
    const prepared = spec.prepare && !event.problem ? spec.prepare(paths, event.envelope, env, handoff) : undefined;
    if (prepared instanceof Promise) prepared.catch(() => undefined);
    writeSpoolFile(paths, event.envelope, spec.hook);
    if (event.problem) logLine(paths, spec.hook, event.problem);
    await ensureWorker(paths, env);
    // Last, and whole or not at all: a failure anywhere before leaves stdout empty.
    const text = spec.context && !event.problem ? await spec.context(paths, event.envelope, env, prepared) : undefined;
    if (text) print(text.endsWith('\n') ? text : `${text}\n`);
  } catch (err) {
    if (paths) logLine(paths, spec.hook, err instanceof Error ? err.message : String(err));
  }
}

function buildEvent(
  spec: Pick<HookSpec<z.ZodMiniType>, 'hook' | 'input' | 'toEvent'>,
  stdin: StdinRead,
  env: NodeJS.ProcessEnv,
): { envelope: Envelope; problem?: string } {
  const raw = stdin.bytes;
  let parsed: unknown;
  let problem: string | undefined;
  let facts: StdinFacts = { cut: 0 };
  if (stdin.total === 0) problem = 'empty stdin';
  else {
    try {
      const read = parseStdin(stdin);
      parsed = read.value;
      // What was dropped ends with the JSON closing the cut string (`"}` as Claude Code sends a
      // prompt, its last field): those bytes are not the string's.
      const cut = stdin.total - raw.length;
      facts = { cut: cut > 0 ? Math.max(0, cut - jsonClosing(stdin.tail)) : 0, cutField: read.cutField };
    } catch (err) {
      // V8 quotes the start of the input in its message: say only what and where.
      problem = `stdin is ${describeJsonError(err, raw.toString('utf8'))}`;
    }
  }
  let session = '';
  let project = '';
  let body: HookEventBody | undefined;
  if (!problem) {
    const common = commonInput.safeParse(parsed);
    const own = spec.input.safeParse(parsed);
    if (common.success) {
      session = common.data.session_id;
      project = common.data.cwd;
    }
    if (!common.success || !own.success) {
      problem = `stdin does not match the ${spec.hook} payload: ${describeIssues(common.error ?? own.error)}`;
    } else {
      try {
        body = spec.toEvent({ ...(own.data as object), ...common.data } as never, facts);
        const checked = redactEventData(body.definition, body.data, body.settled);
        if (checked.ok) body = { definition: body.definition, data: checked.data };
        else {
          problem = checked.problem;
          body = undefined;
        }
      } catch (err) {
        problem = `stdin could not be normalized: ${(err as Error).message}`;
      }
    }
  }
  if (!body) {
    problem = redactText(problem ?? 'unreadable stdin').replace(/\s+/g, ' ').slice(0, 500);
    body = {
      definition: HookInputRejected,
      data: { hook: spec.hook, reason: problem, excerpt: outline(parsed, raw), bytes: stdin.total },
    };
  }
  const micros = wallMicros();
  const envelope: Envelope = {
    id: newEventId(micros, process.pid),
    type: body.definition.type,
    schemaVersion: body.definition.schemaVersion,
    ts: eventTime(env, micros),
    session,
    project,
    data: body.data,
    producer: BUILD_ID,
  };
  return problem ? { envelope, problem } : { envelope };
}


/**
 * Writes to stdout with writeSync: touching process.stdout loads the stream machinery, a tenth of
 * a hook's budget. A pipe left non-blocking may refuse for a moment (EAGAIN): wait a millisecond
 * and go on, for at most a second.
 */
function print(text: string): void {
  if (text === '') return;
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  for (let waits = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 1000) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/** `ENGRAM_NOW` pins event time for tests and replays; a bad value falls back to the real clock. */
function eventTime(env: NodeJS.ProcessEnv, micros: number): string {
  const pinned = env.ENGRAM_NOW ? new Date(env.ENGRAM_NOW) : undefined;
  if (pinned && !Number.isNaN(pinned.getTime())) return pinned.toISOString();
  return isoTime(Math.floor(micros / 1000));
}

/**
 * What a rejected payload is kept as, in HookInputRejected's `excerpt`: its outline (keys, types,
 * sizes, identifiers) and the pointer a tool call would have had; never raw stdin, which holds
 * tool output and file contents.
 */
function outline(parsed: unknown, raw: Buffer): string {
  if (parsed === undefined) return raw.length === 0 ? '' : `not JSON: ${raw.length} bytes`;
  const payload = parsed as Record<string, unknown> | null;
  const tool = typeof payload === 'object' && payload !== null ? payload.tool_name : undefined;
  const pointer = typeof tool === 'string' && payload!.tool_input !== undefined ? toolInputPointer(tool, payload!.tool_input) : '';
  const shape = payloadOutline(parsed, EXCERPT_CAP - (pointer ? pointer.length + 11 : 0));
  return pointer ? `${shape}; pointer: ${pointer}` : shape;
}

const EXCERPT_CAP = 2000;

function logLine(paths: EngramPaths, hook: string, message: string): void {
  try {
    mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
    appendRotated(paths.hooksLog, `${new Date().toISOString()} ${hook} pid=${process.pid} ${redactText(message).replace(/\s+/g, ' ').slice(0, 1000)}\n`, HOOKS_LOG_ROTATION);
  } catch {
    // Nowhere left to report to; the session must not notice.
  }
}

/** How many bytes at the end of stdin close a string that was the object's last value: `"`, `}`, white space. */
function jsonClosing(tail: Buffer | undefined): number {
  if (!tail) return 0;
  let i = tail.length;
  while (i > 0 && (tail[i - 1] === 0x20 || tail[i - 1] === 0x0a || tail[i - 1] === 0x0d || tail[i - 1] === 0x09)) i--;
  if (i === 0 || tail[i - 1] !== 0x7d /* } */) return 0;
  i--;
  while (i > 0 && (tail[i - 1] === 0x20 || tail[i - 1] === 0x0a || tail[i - 1] === 0x0d || tail[i - 1] === 0x09)) i--;
  if (i === 0 || tail[i - 1] !== 0x22 /* " */) return 0;
  return tail.length - (i - 1);
}
