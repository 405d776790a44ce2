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

/** Wall-clock microseconds, finer than Date.now(), comparable across processes. */
export function wallMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}
