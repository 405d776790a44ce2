import { join } from 'node:path';
import { captureTranscript, type CaptureOptions, type FinalAnswer } from '../capture/capture-transcript.js';
import { contentHash } from '../content-hash.js';
import { defaultCatalog } from '../events/default-catalog.js';
import type { DomainEvent } from '../events/catalog.js';
import type { Envelope, StoredEnvelope } from '../events/envelope.js';
import { SessionEnded, TurnStopped } from '../events/hook-events.js';
import { TranscriptCaptured } from '../events/transcript-events.js';
import type { EventData } from '../events/define-event.js';
import type { EventLog } from '../log/event-log.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';

export interface TranscriptCaptureOptions extends Pick<CaptureOptions, 'head' | 'tail' | 'maxLineBytes'> {
  /**
   * How many events before a round's first one are read for the session's last Stop answer
   * (a SessionEnd follows its last Stop closely). Default 2,000.
   */
  lookback?: number;
}

/**
 * When a session ends, reads its transcript and records what it said (TranscriptCaptured), so
 * the distiller and every rebuild work from the log, never from a file that may change or go.
 * The session's last Stop answer, when the transcript lacks it, ends the excerpt. The event's id
 * is derived from the session and its SessionEnded, so a round done twice stores it once.
 */
export function transcriptCaptureReactor(options: TranscriptCaptureOptions = {}): Reactor {
  const lookback = options.lookback ?? 2_000;
  const catalog = defaultCatalog();
  return {
    name: 'transcript-capture',
    async react(ctx): Promise<Envelope[]> {
      // Most rounds hold no SessionEnded: those read only their own events, never the lookback.
      if (!(await anySessionEnded(ctx.log, ctx.from, ctx.to))) return [];
      const answers = new Map<string, FinalAnswer>();
      const out: Envelope[] = [];
      for await (const batch of ctx.log.read({ from: Math.max(1, ctx.from - lookback), to: ctx.to })) {
        for (const stored of batch) {
          if (ctx.signal.aborted) throw ctx.signal.reason;
          if (stored.type !== TurnStopped.type && stored.type !== SessionEnded.type) continue;
          const event = readOrSkip(stored);
          if (event?.type === 'TurnStopped') {
            if (event.data.answer) answers.set(event.session, { text: event.data.answer, at: event.ts });
            else answers.delete(event.session);
          } else if (event?.type === 'SessionEnded' && event.seq >= ctx.from && event.data.transcriptPath && !(await ranElsewhere(ctx, event.id))) {
            const data = await captureTranscript(event.data.transcriptPath, {
              ...options,
              projectsDir: join(ctx.paths.claude, 'projects'),
              finalAnswer: answers.get(event.session),
              signal: ctx.signal,
            });
            out.push(transcriptCaptured(event, data, ctx.clock.now().toISOString()));
            answers.delete(event.session);
          }
        }
      }
      return out;
    },
  };

  // One unreadable event is passed over, never the end of the round (nor of the worker).
  function readOrSkip(stored: StoredEnvelope): DomainEvent | undefined {
    try {
      return catalog.readStored(stored);
    } catch {
      return undefined;
    }
  }
}

/**
 * A session that ran on another machine (the sync brought its end in): its transcript is on that
 * disk, and that machine's capture arrives through the sync under the same id.
 */
async function ranElsewhere(ctx: ReactorContext, id: string): Promise<boolean> {
  return ctx.elsewhere ? (await ctx.elsewhere([id]))[0] === true : false;
}

async function anySessionEnded(log: EventLog, from: number, to: number): Promise<boolean> {
  if (from > to) return false;
  for await (const batch of log.read({ from, to })) {
    if (batch.some((event) => event.type === SessionEnded.type)) return true;
  }
  return false;
}

/** The capture of one SessionEnded: its id is the same however many times it is made. */
export function transcriptCaptured(ended: Pick<StoredEnvelope, 'id' | 'session' | 'project'>, data: EventData<typeof TranscriptCaptured>, ts: string): Envelope {
  return {
    id: `transcript:${contentHash(`${ended.session}\n${ended.id}`)}`,
    type: TranscriptCaptured.type,
    schemaVersion: TranscriptCaptured.schemaVersion,
    ts,
    session: ended.session,
    project: ended.project,
    data,
  };
}
