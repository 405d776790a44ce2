import { readJsonlLines } from '../capture/read-jsonl-lines.js';

/**
 * The project history.jsonl names for each of these sessions: for transcripts whose lines name
 * no cwd and whose directory name does not decode to a path. Lines it cannot read are passed over.
 */
export async function sessionProjects(historyPath: string, sessions: ReadonlySet<string>, signal?: AbortSignal): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  try {
    for await (const raw of readJsonlLines(historyPath, { signal })) {
      if (raw.kind !== 'line' || !raw.text.includes('"sessionId"')) continue;
      let line: { sessionId?: unknown; project?: unknown };
      try {
        line = JSON.parse(raw.text) as typeof line;
      } catch {
        continue;
      }
      if (typeof line.sessionId === 'string' && sessions.has(line.sessionId) && typeof line.project === 'string' && line.project.length > 0 && line.project.length <= 4096) {
        found.set(line.sessionId, line.project);
        if (found.size === sessions.size) break;
      }
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    // The history pass itself reports why the file cannot be read.
  }
  return found;
}
