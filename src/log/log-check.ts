/** A stretch of seqs whose events cannot be read (a damaged block), with LevelDB's word for it. */
export interface DamagedRange {
  from: number;
  to: number;
  reason: string;
}

/** What reading the whole log found: `engram log verify`, the worker's check, doctor. */
export interface LogCheck {
  /** Events read whole. */
  readable: number;
  head: number;
  damaged: DamagedRange[];
  /** Why the id index or the metadata could not be read whole, when they could not. */
  indexDamage?: string;
}

export interface CheckOptions {
  /** Decode every event too (what `log verify` and `repair` do). Default false: reading the blocks is what finds a damaged one. */
  decode?: boolean;
  /** Check only from this seq on (the worker's periodic look at what is new). Default 1, and the index too. */
  from?: number;
}

export function isWhole(check: LogCheck): boolean {
  return check.damaged.length === 0 && check.indexDamage === undefined;
}

/** One line a person can act on: where the log is damaged, and what to run. */
export function describeDamage(check: LogCheck): string {
  const ranges = check.damaged.map((r) => (r.from === r.to ? `seq ${r.from}` : `seqs ${r.from}–${r.to}`));
  const parts: string[] = [];
  if (ranges.length > 0) parts.push(`${ranges.join(', ')} cannot be read (${check.damaged[0]!.reason})`);
  if (check.indexDamage !== undefined) parts.push(`its id index cannot be read whole (${check.indexDamage})`);
  return `the log is damaged: ${parts.join('; ')}; ${check.readable} events are readable`;
}
