/** What one run of `engram backfill` reads, and what it asks of the log while it reads. */
export interface BackfillScope {
  /** `--since`: events before this time (ms since the epoch) are passed over. */
  since: number | undefined;
  /** `--project`: whether a session's project is one to read. Undefined: every project. */
  project: ((project: string) => boolean) | undefined;
  /** The clock's reading when the run began (ms): a transcript quiet for an hour before it has ended. */
  now: number;
  /**
   * From when (ms) the hooks captured a session live, less a margin for the two clocks, or
   * undefined when they never did: what a transcript says from then on is already in the log.
   */
  liveFrom(session: string): Promise<number | undefined>;
  /** Bytes of a record read since the last call, for the progress bar. */
  progress(bytes: number): void;
  signal?: AbortSignal;
}
