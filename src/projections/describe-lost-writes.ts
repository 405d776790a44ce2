import type { LostWritesRow } from './lost-writes.js';

/**
 * The plain words for a loss, one line: shared by doctor and the SessionStart summary. Imports
 * nothing the hooks cannot bundle.
 */
export function describeLostWrites(row: Pick<LostWritesRow, 'count' | 'firstAt' | 'lastAt' | 'latest'>): string {
  const reasons = [...new Set(row.latest.map((loss) => reasonWords(loss.reason)))];
  const when = row.firstAt.slice(0, 16) === row.lastAt.slice(0, 16) ? `at ${row.firstAt.slice(0, 16).replace('T', ' ')} UTC` : `between ${row.firstAt.slice(0, 16).replace('T', ' ')} and ${row.lastAt.slice(0, 16).replace('T', ' ')} UTC`;
  return `${row.count} hook event${row.count === 1 ? ' was' : 's were'} lost ${when}: the hooks could not write them (${reasons.join('; ')}), so engram never recorded those prompts or tool calls`;
}

function reasonWords(code: string): string {
  switch (code) {
    case 'ENOSPC':
      return 'ENOSPC, the disk was full';
    case 'EDQUOT':
      return 'EDQUOT, the disk quota was reached';
    case 'EIO':
      return 'EIO, an I/O error';
    case 'EROFS':
      return 'EROFS, the file system was read-only';
    case 'EACCES':
    case 'EPERM':
      return `${code}, permission denied`;
    default:
      return code;
  }
}
