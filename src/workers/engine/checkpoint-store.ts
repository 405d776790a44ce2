import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import * as z from 'zod/mini';
import { EngramError } from '../../errors.js';

/** A projector's progress: how far into the log its state (and its sink's outputs) go. */
export interface Checkpoint<S = unknown> {
  projectorVersion: number;
  /** The last seq folded into `state`; 0 before the first event. */
  seq: number;
  state: S;
}

/** Why a projector stopped, kept until a rebuild or a new projectorVersion clears it. */
export interface ProjectorFault {
  projector: string;
  /** The event it could not fold; the checkpoint stands at the event before. */
  seq: number;
  eventId: string;
  eventType: string;
  message: string;
  at: string;
}

const checkpointShape = z.object({ projectorVersion: z.int(), seq: z.int().check(z.nonnegative()), state: z.unknown() });
const faultShape = z.object({
  projector: z.string(), seq: z.int(), eventId: z.string(), eventType: z.string(), message: z.string(), at: z.string(),
});

/**
 * Saves each projector's state and checkpoint together in one file, replaced atomically
 * (temp + rename): a crash leaves the old pair or the new pair, never half of each.
 */
export class CheckpointStore {
  readonly #dir: string;
  // structuredClone keeps Maps and Sets as they are; state is not JSON-shaped.
  readonly #packr = new Packr({ structuredClone: true });

  constructor(dir: string) {
    this.#dir = dir;
  }

  async load<S>(name: string): Promise<Checkpoint<S> | undefined> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.#file(name, 'checkpoint'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let decoded: unknown;
    try {
      decoded = this.#packr.unpack(bytes);
    } catch (cause) {
      throw new EngramError('STATE_CORRUPT', `the checkpoint of ${name} does not decode`, { cause });
    }
    const parsed = checkpointShape.safeParse(decoded);
    if (!parsed.success) throw new EngramError('STATE_CORRUPT', `the checkpoint of ${name} is malformed`, { cause: parsed.error });
    return parsed.data as Checkpoint<S>;
  }

  async save<S>(name: string, checkpoint: Checkpoint<S>): Promise<void> {
    await this.#writeAtomic(this.#file(name, 'checkpoint'), this.#packr.pack(checkpoint));
  }

  async drop(name: string): Promise<void> {
    await rm(this.#file(name, 'checkpoint'), { force: true });
    await this.clearFault(name);
  }

  async loadFault(name: string): Promise<ProjectorFault | undefined> {
    try {
      const parsed = faultShape.safeParse(JSON.parse(await readFile(this.#file(name, 'fault'), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async saveFault(fault: ProjectorFault): Promise<void> {
    await this.#writeAtomic(this.#file(fault.projector, 'fault'), `${JSON.stringify(fault, null, 2)}\n`);
  }

  async clearFault(name: string): Promise<void> {
    await rm(this.#file(name, 'fault'), { force: true });
  }

  #file(name: string, kind: 'checkpoint' | 'fault'): string {
    return join(this.#dir, kind === 'checkpoint' ? `${name}.checkpoint` : `${name}.fault.json`);
  }

  async #writeAtomic(path: string, body: Uint8Array | string): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, path);
  }
}
