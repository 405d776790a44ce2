import { existsSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TranscriptFile } from './transcript-backfill.js';

/** A session transcript with its subagents' transcripts, and what its first lines say. */
export interface SessionRecords extends TranscriptFile {
  mtimeMs: number;
  /** The first line's time (ms), or the file's mtime when no line in its head has one. */
  firstAt: number;
  subagents: Array<TranscriptFile & { mtimeMs: number }>;
}

export interface ClaudeRecords {
  /** Oldest first (by their first line's time), so the log receives the past in about the order it happened. */
  sessions: SessionRecords[];
  history: { path: string; rel: string; bytes: number; mtimeMs: number } | undefined;
  /** Directories and files that could not be listed or read, and why. */
  unreadable: Array<{ path: string; reason: string }>;
}

/** How much of a transcript's start is read to learn its project and first time. */
const HEAD_BYTES = 64 * 1024;

/**
 * Lists what Claude Code keeps under its config directory: `projects/<slug>/<session>.jsonl`,
 * `projects/<slug>/<session>/subagents/agent-*.jsonl` and `history.jsonl`. Never follows a
 * symbolic link; memory directories and anything else are left alone. `slugPrefix` limits it to
 * the directories of a project and of those under it (`--project`; a sibling whose name merely
 * starts alike is told apart later by the cwd its lines name).
 */
export async function listClaudeRecords(claudeDir: string, options: { slugPrefix?: string } = {}): Promise<ClaudeRecords> {
  const records: ClaudeRecords = { sessions: [], history: undefined, unreadable: [] };
  const projectsDir = join(claudeDir, 'projects');
  const projectDirs = existsSync(projectsDir) ? await listDir(projectsDir, records) : [];
  for (const dir of projectDirs) {
    if (!dir.isDirectory() || (options.slugPrefix !== undefined && !dir.name.startsWith(options.slugPrefix))) continue;
    const slugDir = join(projectsDir, dir.name);
    const entries = await listDir(slugDir, records);
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
      const session = entry.name.slice(0, -'.jsonl'.length);
      const path = join(slugDir, entry.name);
      const rel = `projects/${dir.name}/${entry.name}`;
      const info = await statFile(path, rel, records);
      if (!info) continue;
      const head = await readHead(path);
      const subagents: SessionRecords['subagents'] = [];
      const subDir = join(slugDir, session, 'subagents');
      if (entries.some((other) => other.isDirectory() && other.name === session) && existsSync(subDir)) {
        for (const sub of await listDir(subDir, records)) {
          if (!sub.isFile() || !sub.name.endsWith('.jsonl')) continue;
          const subPath = join(subDir, sub.name);
          const subRel = `projects/${dir.name}/${session}/subagents/${sub.name}`;
          const subInfo = await statFile(subPath, subRel, records);
          if (subInfo) subagents.push({ path: subPath, rel: subRel, source: 'subagent', session, project: undefined, bytes: subInfo.size, mtimeMs: subInfo.mtimeMs });
        }
      }
      subagents.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.rel < b.rel ? -1 : 1));
      records.sessions.push({
        path, rel, source: 'transcript', session, project: head.cwd ?? decodeSlug(dir.name), bytes: info.size, mtimeMs: info.mtimeMs,
        firstAt: head.at ?? info.mtimeMs, subagents,
      });
    }
  }
  records.sessions.sort((a, b) => a.firstAt - b.firstAt || (a.rel < b.rel ? -1 : 1));
  const historyPath = join(claudeDir, 'history.jsonl');
  if (existsSync(historyPath)) {
    const info = await statFile(historyPath, 'history.jsonl', records);
    if (info) records.history = { path: historyPath, rel: 'history.jsonl', bytes: info.size, mtimeMs: info.mtimeMs };
  }
  return records;
}

/**
 * The path a project directory's name stands for, when it is one that exists: Claude Code turns
 * every character outside [A-Za-z0-9] into `-`, so only a path of plain names separated by `/`
 * decodes. Undefined otherwise (the cwd on the transcript's lines says it instead).
 */
export function decodeSlug(slug: string): string | undefined {
  if (!slug.startsWith('-')) return undefined;
  const path = slug.replace(/-/g, '/');
  return existsSync(path) ? path : undefined;
}

async function listDir(dir: string, records: ClaudeRecords) {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    records.unreadable.push({ path: dir, reason: reasonOf(err) });
    return [];
  }
}

async function statFile(path: string, rel: string, records: ClaudeRecords) {
  try {
    const info = await stat(path);
    if (!info.isFile()) {
      records.unreadable.push({ path: rel, reason: 'not a regular file' });
      return undefined;
    }
    return info;
  } catch (err) {
    records.unreadable.push({ path: rel, reason: reasonOf(err) });
    return undefined;
  }
}

/** The first cwd and the first time named in a transcript's first 64 KB; what cannot be read is left out. */
async function readHead(path: string): Promise<{ cwd: string | undefined; at: number | undefined }> {
  let cwd: string | undefined;
  let at: number | undefined;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      const text = buffer.toString('utf8', 0, bytesRead);
      for (const line of text.split('\n').slice(0, -1)) {
        let json: { cwd?: unknown; timestamp?: unknown };
        try {
          json = JSON.parse(line) as typeof json;
        } catch {
          continue;
        }
        if (cwd === undefined && typeof json.cwd === 'string' && json.cwd.length > 0 && json.cwd.length <= 4096) cwd = json.cwd;
        const time = typeof json.timestamp === 'string' ? Date.parse(json.timestamp) : Number.NaN;
        if (at === undefined && !Number.isNaN(time)) at = time;
        if (cwd !== undefined && at !== undefined) break;
      }
    } finally {
      await handle.close();
    }
  } catch {
    // Reading it properly reports why it cannot be read.
  }
  return { cwd, at };
}

export function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'it went away while being read';
  if (code === 'EISDIR') return 'a directory';
  return code ?? (err instanceof Error ? err.message : String(err));
}
