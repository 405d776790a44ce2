/**
 * Spool file names sort in the order hooks wrote them: wall-clock microseconds (16 digits),
 * then pid and a random tail to keep concurrent writers apart. The worker ingests in this order,
 * so one session's events keep the order its hooks ran.
 */
export function spoolFileName(micros: number, pid: number): string {
  const tail = Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
  return `${String(micros).padStart(16, '0')}-${pid}-${tail}.json`;
}

/** The microseconds a spool file name starts with, or undefined for a name not of this form. */
export function spoolFileMicros(name: string): number | undefined {
  const match = /^(\d{16})-\d+-[0-9a-f]{8}\.json$/.exec(name);
  return match ? Number(match[1]) : undefined;
}
