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

/**
 * A file's name in spool/tmp: its spool name with the writer's start time (process-start.ts)
 * before `.json`, so the worker can tell a live writer, however slow, from a dead one. Without
 * /proc it is the plain spool name, and the worker goes by age.
 */
export function spoolTmpName(micros: number, pid: number, start: string | undefined): string {
  const name = spoolFileName(micros, pid);
  return start === undefined ? name : name.replace(/\.json$/, `.${start}.json`);
}

/** What a spool/tmp name says: its clock reading, and its writer when the name carries one. */
export function spoolTmpWriter(name: string): { micros: number; writer?: { pid: number; start: string } } | undefined {
  const match = /^(\d{16})-(\d+)-[0-9a-f]{8}(?:\.(\d+))?\.json$/.exec(name);
  if (!match) return undefined;
  return match[3] === undefined ? { micros: Number(match[1]) } : { micros: Number(match[1]), writer: { pid: Number(match[2]), start: match[3] } };
}
