const DAY_MS = 86_400_000;

/**
 * `new Date(ms).toISOString()`, by arithmetic: a hook stamps one event, and V8's first use of a
 * Date's fields sets up its date cache, ≈ 1.2 ms of CPU, a twentieth of an append hook's own
 * cost (issue 22). Years outside 0–9999, which the ISO form writes with a sign, go to Date.
 */
export function isoTime(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  // Days to a proleptic Gregorian date (H. Hinnant's civil_from_days), in eras of 400 years
  // counted from 0000-03-01, so that a leap day ends its year.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * m + 2) / 5) + 1;
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (!Number.isInteger(ms) || year < 0 || year > 9999) return new Date(ms).toISOString();
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  const millis = inDay % 1000;
  const seconds = Math.floor(inDay / 1000);
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}.${String(millis).padStart(3, '0')}Z`;
}
