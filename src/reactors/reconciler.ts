import { join, relative, sep } from 'node:path';
import { isEngramError } from '../errors.js';
import type { Envelope } from '../events/envelope.js';
import { readMemoryDir, type MemoryDir } from '../memories/read-memory-dir.js';
import type { OwnershipRecord } from '../ownership/ownership-record.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir, type EngramPaths } from '../paths.js';
import type { MemoryRow } from '../projections/memories/memory-row.js';
import type { OutputRecord } from '../projections/projector.js';
import type { ProjectionRunner } from '../engine/projection-runner.js';
import type { Reactor, ReactorContext } from '../engine/reactor.js';
import { reconcileMemoryDir, type ReconcileResult } from './reconcile-memory-dir.js';
import { rowsOfKind } from '../projections/memories/memories-rows.js';

/** Claude Code's tools that write a file: a memory file they touch is the agent's edit. */
export const AGENT_WRITE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** A memory directory to look at: its project (when known), and the files the agent wrote there. */
export interface ReconcileTarget {
  project: string | undefined;
  agentFiles: Set<string>;
}

/**
 * The hand-edit reconciler as a reactor (DESIGN.md "Storage"). It looks at a memory directory
 * when a session of its project starts (SessionStarted: the project's directory and the global
 * one), when the agent wrote a file in it (ToolCalled by Write/Edit/MultiEdit/NotebookEdit whose
 * pointer is a path inside it: those changes are recorded as the agent's), and at every memory
 * directory engram knows on its first round after the worker starts. What it finds becomes
 * events (see reconcileMemoryDir), with ids derived from path and content, so a round done
 * twice stores them once.
 */
export function reconcilerReactor(): Reactor {
  // Instance state, not projection state: a new worker looks at every directory once.
  let started = false;
  return {
    name: 'reconciler',
    reads: ['memories', 'stats'],
    async react(ctx: ReactorContext): Promise<Envelope[]> {
      const targets = new Map<string, ReconcileTarget>();
      if (!started) for (const dir of await knownDirs(ctx.runner)) addTarget(targets, dir, undefined);
      if (ctx.from <= ctx.to) {
        for await (const batch of ctx.log.read({ from: ctx.from, to: ctx.to })) {
          for (const event of batch) collectTarget(targets, event, ctx.paths.claude);
        }
      }
      if (targets.size > 0) {
        const result = await reconcileDirs(ctx.runner, ctx.paths, targets, ctx.clock.now().toISOString());
        started = true;
        return result.events;
      }
      started = true;
      return [];
    },
  };
}

/** The directory an event asks to look at, if any. */
function collectTarget(targets: Map<string, ReconcileTarget>, event: Envelope, claude: string): void {
  if (event.type === 'SessionStarted' && event.project !== '') {
    addTarget(targets, projectMemoryDir(event.project), event.project);
    addTarget(targets, GLOBAL_MEMORY_DIR, '');
    return;
  }
  if (event.type !== 'ToolCalled') return;
  const data = event.data as { tool?: unknown; input?: unknown };
  if (typeof data.tool !== 'string' || !AGENT_WRITE_TOOLS.has(data.tool) || typeof data.input !== 'string') return;
  const found = memoryFileAt(claude, data.input);
  if (!found) return;
  const project = found.dir === GLOBAL_MEMORY_DIR ? '' : event.project !== '' && projectMemoryDir(event.project) === found.dir ? event.project : undefined;
  addTarget(targets, found.dir, project).agentFiles.add(found.file);
}

function addTarget(targets: Map<string, ReconcileTarget>, dir: string, project: string | undefined): ReconcileTarget {
  let target = targets.get(dir);
  if (!target) targets.set(dir, (target = { project, agentFiles: new Set() }));
  if (target.project === undefined) target.project = project;
  return target;
}

/**
 * The memory directory and file a path points into (`<claude>/projects/<slug>/memory/x.md`, the
 * global directory, their `_archive/`), or undefined.
 */
export function memoryFileAt(claude: string, path: string): { dir: string; file: string } | undefined {
  if (!path.startsWith(`${claude}${sep}`)) return undefined;
  const rel = relative(claude, path).split(sep).join('/');
  const match = /^(projects\/[^/]+\/memory|engram\/memory)\/((?:_archive\/)?[^/]+\.md)$/.exec(rel);
  return match ? { dir: match[1]!, file: match[2]! } : undefined;
}

/** Every memory directory the memories projection has memories in, and the global one. */
export async function knownDirs(runner: ProjectionRunner): Promise<string[]> {
  const dirs = new Set<string>([GLOBAL_MEMORY_DIR]);
  const rows = runner.rowsOf('memories');
  for await (const [, memory] of rowsOfKind((prefix) => rows.entries(prefix), 'mem')) dirs.add(memory.dir);
  return [...dirs].sort();
}

/** The ledger's records of a directory's memory paths (the files there, and every memory's), by path relative to the config directory. */
async function ownersOf(runner: ProjectionRunner, claude: string, dir: string, read: MemoryDir): Promise<Map<string, OwnershipRecord>> {
  const names = new Set([...read.memories, ...read.archived].map((file) => file.fileName));
  const rows = runner.rowsOf('memories');
  for await (const [, memory] of rowsOfKind((prefix) => rows.entries(prefix), 'mem')) {
    if (memory.dir === dir) names.add(memory.file);
  }
  const rel = [...names].map((name) => `${dir}/${name}`);
  const records = await runner.ownership.get(rel.map((path) => join(claude, path)));
  const owners = new Map<string, OwnershipRecord>();
  rel.forEach((path, i) => {
    if (records[i] !== undefined) owners.set(path, records[i]!);
  });
  return owners;
}

/**
 * Reads each target directory and compares it with the memories projection's committed rows and
 * its sink's records (what the files already show): the events that record what changed, and a
 * note for each thing seen and left alone. A directory that does not exist has nothing to say.
 */
export async function reconcileDirs(runner: ProjectionRunner, paths: EngramPaths, targets: ReadonlyMap<string, ReconcileTarget>, at: string): Promise<ReconcileResult> {
  const rowsByDir = new Map<string, MemoryRow[]>();
  const rows = runner.rowsOf('memories');
  for await (const [, memory] of rowsOfKind((prefix) => rows.entries(prefix), 'mem')) {
    if (targets.has(memory.dir)) rowsByDir.set(memory.dir, [...(rowsByDir.get(memory.dir) ?? []), memory]);
  }
  const toRelative = (records: Array<[string, OutputRecord]>) => records.map(([path, record]) => [relative(paths.claude, path).split(sep).join('/'), record] as const);
  const othersPaths = new Set(toRelative(await runner.outputsOf('stats')).map(([path]) => path));
  const result: ReconcileResult = { events: [], notes: [] };
  for (const [dir, target] of [...targets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const rows = rowsByDir.get(dir) ?? [];
    const project = rows[0]?.project ?? target.project ?? (dir === GLOBAL_MEMORY_DIR ? '' : undefined);
    if (project === undefined) {
      result.notes.push(`skipped ${dir}: no project is known for it yet`);
      continue;
    }
    let read;
    let owners: Map<string, OwnershipRecord>;
    let changing: Set<string>;
    try {
      // The files, then what engram wrote there, then the files again: a file that held the same
      // bytes before and after the look at the ledger was engram's if the ledger says so (engram
      // records what it intends to write before writing), whatever the memories lane did in
      // between. A file that changed in between is looked at in the next round.
      const first = await readMemoryDir(join(paths.claude, dir));
      owners = await ownersOf(runner, paths.claude, dir, first);
      read = await readMemoryDir(join(paths.claude, dir));
      const before = new Map([...first.memories, ...first.archived].map((file) => [file.fileName, file.hash]));
      read = { ...read, memories: read.memories.filter((file) => before.get(file.fileName) === file.hash), archived: read.archived.filter((file) => before.get(file.fileName) === file.hash) };
      const still = new Set([...read.memories, ...read.archived].map((file) => file.fileName));
      changing = new Set([...before.keys()].filter((name) => !still.has(name)));
    } catch (err) {
      if (!isEngramError(err, 'MEMORY_DIR_UNREADABLE')) throw err;
      // A directory that is not there (yet) has nothing to reconcile; one that was removed whole is not read as every memory deleted.
      if ((err.cause as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') result.notes.push(`unreadable: ${dir}: ${err.message}`);
      continue;
    }
    const one = reconcileMemoryDir({ known: { dir, project, rows, owners, othersPaths }, read, changing, agentFiles: target.agentFiles, at });
    result.events.push(...one.events);
    result.notes.push(...one.notes);
  }
  return result;
}
