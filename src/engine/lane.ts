import type PQueue from 'p-queue';
import type { Projection } from '../projections/projector.js';
import type { RowCache } from './row-cache.js';
import type { ProjectorStatus } from './runner-options.js';
import type { Checkpoint, LaneStore, ProjectorFault, ResetNote, RowFailure } from './state-store.js';

/** One projection as the runner drives it: its queue, checkpoint, rows in memory, fault and failed rows. */
export interface Lane {
  readonly projection: Projection<unknown>;
  readonly name: string;
  /** Whether its projector handles an event, by WindowSlot.typeId. */
  readonly handlesType: readonly boolean[];
  readonly store: LaneStore | null;
  // One task at a time per projection: its events are folded strictly in log order.
  readonly queue: PQueue;
  readonly cache: RowCache;
  checkpoint: Checkpoint;
  resetPending: { reason: string; note: boolean } | undefined;
  lastReset: ResetNote | undefined;
  fault: ProjectorFault | undefined;
  failing: ProjectorStatus['failing'];
  failed: Map<string, RowFailure>;
  retryDelay: number;
  retryAt: number;
  pending: Promise<void> | undefined;
  /**
   * Set while the lane's store has held nothing but what this runner wrote to it since it was
   * empty (after a reset, or on a first run): a key not in these sets is known to be absent,
   * so a rebuild never asks LevelDB for the thousands of rows that do not exist yet.
   */
  written: { rows: Set<string>; outputs: Set<string> } | undefined;
}
