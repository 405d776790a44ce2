/**
 * A unique, roughly time-ordered event id: microseconds since the epoch, the process id and 48
 * random bits. Not node:crypto: hooks call this, and crypto costs them a measurable 5 % of their
 * budget; Math.random is seeded per process from the OS, and the pid and clock already separate
 * concurrent writers.
 */
export function newEventId(nowMicros: number, pid: number): string {
  const rand = Math.floor(Math.random() * 0x1000000).toString(36).padStart(5, '0') +
    Math.floor(Math.random() * 0x1000000).toString(36).padStart(5, '0');
  return `${nowMicros.toString(36).padStart(11, '0')}-${pid.toString(36)}-${rand}`;
}

/** A monotonic clock in microseconds (process.hrtime: no module to load). */
const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * The wall clock when this module was loaded, less the monotonic clock then: Date.now()'s
 * millisecond, taken at its middle. Not `performance.timeOrigin`, whose first use loads
 * perf_hooks: ≈ 2.5 ms of a hook's budget. The half millisecond it may be off by is within the
 * margin the ingest allows between clocks (ingest.ts CLOCK_MARGIN_MICROS).
 */
const WALL_AT_LOAD_MICROS = Math.round((Date.now() + 0.5) * 1000) - monotonicMicros();

/**
 * Wall-clock microseconds for a short-lived process (a hook): finer than Date.now(), never going
 * back within the process, and comparable across processes, because its anchor is a wall-clock
 * reading taken when the process started. Its running part is a monotonic clock, which stops
 * while a laptop sleeps: in a process that lives a tenth of a second that cannot matter; in the
 * worker it would lag the wall clock by every suspend since it started. Long-lived processes use
 * systemClockMicros().
 */
export function wallMicros(): number {
  return WALL_AT_LOAD_MICROS + monotonicMicros();
}

/**
 * The system's wall clock, read afresh on each call, in microseconds (millisecond resolution):
 * what a long-lived process compares with the spool names hooks take from wallMicros(). It
 * keeps counting through a suspend and follows clock steps, as the hooks' readings do.
 */
export function systemClockMicros(): number {
  return Date.now() * 1000;
}
