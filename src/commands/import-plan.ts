import { contentHash } from '../content-hash.js';
import type { Envelope } from '../events/envelope.js';
import { MemoryArchived, MemoryProposed } from '../events/memory-events.js';
import { MemoryGraphed } from '../events/distill-events.js';
import { DistillGraph } from '../events/distill-answer-schema.js';
import { indexDescriptions } from '../memories/index-descriptions.js';
import { inlineEntries } from '../memories/inline-entries.js';
import { memoryFromFile, type FileMemory } from '../memories/memory-from-file.js';
import type { MemoryDir } from '../memories/read-memory-dir.js';
import { fileNameFor, isReservedFileName, type MemoryRow } from '../projections/memories/memory-row.js';
import { proposalFromFile } from '../reactors/reconcile-memory-dir.js';

export interface ImportInput {
  /** The directory read (readMemoryDir). */
  read: MemoryDir;
  /** The memory directory the memories go to, relative to Claude Code's config directory. */
  target: string;
  /** The target's project; '' for the global directory. */
  project: string;
  /** The source is the target itself: its files are adopted where they are, not copied. */
  inPlace: boolean;
  /** Every memory the projection holds (committed rows). */
  rows: readonly MemoryRow[];
  /** The time the events are stamped with. */
  at: string;
  /**
   * Names of the files in the target directory now (`_archive/` ones as `_archive/x.md`): a file
   * on disk is a taken name, whoever wrote it, so an import from elsewhere never lands on it.
   */
  onDisk?: ReadonlySet<string>;
}

export interface ImportPlan {
  events: Envelope[];
  /** Files (and inline entries) that become memories, as `name ← file`. */
  imported: string[];
  /** Already imported, or already engram's. */
  already: string[];
  /** Read but not imported, and why; the files are left as they are. */
  reported: string[];
}

/** Why an imported file in `_archive/` is archived. */
const ARCHIVED_BEFORE = 'archived before import';

/**
 * What `engram import` appends for a directory: one MemoryProposed (origin import) per memory
 * file, per file in `_archive/` (followed by its MemoryArchived), and per entry written inline in
 * MEMORY.md. Ids derive from the target, the file's name and its content's hash, so importing the
 * same directory twice appends nothing the second time. Files engram already shows (they name a
 * memory it has, or sit where one of the target's memories is) are not imported again. A file
 * that cannot become a memory (binary, not UTF-8, over the body cap, unreadable) is reported and
 * left untouched. In place, files are adopted where they are (their hash lets the projection know
 * them; one that cannot be written back as it is, such as malformed frontmatter, is never
 * rewritten) and inline entries are converted to index lines; from elsewhere, files are copied
 * in under their own names when free. Pure: the caller reads the directory.
 */
export function planImport(input: ImportInput): ImportPlan {
  const { read, target, project, inPlace, rows, at } = input;
  const plan: ImportPlan = { events: [], imported: [], already: [], reported: [] };
  const ids = new Set(rows.map((row) => row.id));
  const described = indexDescriptions(read.index?.lines);
  const here = new Set(rows.filter((row) => row.dir === target).flatMap((row) => [row.file, `_archive/${row.file}`]));
  const envelope = (id: string, definition: { type: string; schemaVersion: number }, data: unknown): Envelope =>
    ({ id, type: definition.type, schemaVersion: definition.schemaVersion, ts: at, session: '', project, data });

  const sidecars = new Map(read.graphs.map((file) => [file.fileName, file.text]));
  // Made once, on the first copy: an import of thousands would otherwise make it for each file.
  let taken: Set<string> | undefined;
  for (const file of [...read.memories, ...read.archived]) {
    const archived = file.fileName.startsWith('_archive/');
    const baseName = archived ? file.fileName.slice('_archive/'.length) : file.fileName;
    if (file.parsed.extra.metadata.some((field) => field.key === 'origin' && field.value === 'engram-stats')) continue;
    const made = memoryFromFile(file.parsed);
    if ('why' in made) {
      plan.reported.push(`${file.fileName}: ${made.why}`);
      continue;
    }
    const id = `import:${contentHash(`${target}\0${file.fileName}\0${file.hash}`)}`;
    if (ids.has(id) || (made.memory.memoryId !== undefined && ids.has(made.memory.memoryId)) || (inPlace && here.has(file.fileName))) {
      plan.already.push(file.fileName);
      continue;
    }
    if (inPlace && isReservedFileName(baseName)) {
      plan.reported.push(`${file.fileName}: the name is one engram writes itself; a memory there would be a copy under another name`);
      continue;
    }
    if (baseName.length > 200) {
      plan.reported.push(`${file.fileName}: a file name over 200 characters`);
      continue;
    }
    const memory: FileMemory = {
      ...made.memory,
      description: made.memory.description || (archived ? '' : described.get(file.fileName) ?? ''),
      created: made.memory.created ?? new Date(file.mtimeMs).toISOString(),
    };
    // From elsewhere, a name a file in the target already has is someone's: the import gets another, and both texts stay.
    const fileName = inPlace ? baseName : fileNameFor(memory.name, baseName, (taken ??= takenNames(rows, target, input.onDisk ?? new Set())));
    if (fileName !== baseName) plan.reported.push(`${file.fileName}: ${baseName} is taken in the target; imported as ${fileName}`);
    plan.events.push(
      envelope(id, MemoryProposed, {
        ...proposalFromFile(memory, project, id, 'import'),
        fileName,
        ...(inPlace ? { sourceHash: file.hash } : {}),
      }),
    );
    if (archived) plan.events.push(envelope(`${id}:archived`, MemoryArchived, { memoryId: id, reason: ARCHIVED_BEFORE }));
    const graph = sidecarGraph(sidecars.get(`_graph/${baseName}.json`));
    if (graph && 'why' in graph) plan.reported.push(`_graph/${baseName}.json: ${graph.why}; ${memory.name} is imported without its graph`);
    else if (graph) plan.events.push(envelope(`${id}:graph`, MemoryGraphed, { memoryId: id, graph: graph.graph }));
    const odd = file.parsed.malformed ? ` (read as type unknown: ${file.parsed.malformed}; never rewritten)` : file.parsed.readOnly ? ` (${file.parsed.readOnly}; never rewritten)` : '';
    plan.imported.push(`${memory.name} ← ${file.fileName}${archived ? ' (archived)' : ''}${graph && !('why' in graph) ? ' (with its graph)' : ''}${odd}`);
  }

  if (read.index && (read.index.layout === 'standalone' || read.index.layout === 'mixed')) {
    for (const entry of inlineEntries(read.index.lines)) {
      const id = `import:${contentHash(`${target}\0MEMORY.md\0${entry.lines.join('\n')}`)}`;
      const converting = rows.some((row) => row.dir === target && row.indexLines?.some((line) => entry.lines.includes(line)));
      if (ids.has(id) || converting) {
        plan.already.push(`MEMORY.md: ${entry.name}`);
        continue;
      }
      if (entry.lines.length > 50 || entry.lines.some((line) => line.length > 2000)) {
        plan.reported.push(`MEMORY.md: the entry at "${entry.lines[0]!.slice(0, 40)}…" is too long to become a memory`);
        continue;
      }
      const memory: FileMemory = { name: entry.name, description: entry.description, type: entry.type, body: entry.body, status: 'active', extra: { top: [], metadata: [] } };
      plan.events.push(envelope(id, MemoryProposed, { ...proposalFromFile(memory, project, id, 'import'), ...(inPlace ? { indexLines: entry.lines } : {}) }));
      plan.imported.push(`${entry.name} ← MEMORY.md (inline entry)`);
    }
  }
  for (const file of read.unreadable) plan.reported.push(`${file.fileName}: ${file.reason} (${file.detail})`);
  for (const entry of read.skipped) {
    if (entry.kind === 'not-markdown' || entry.kind === 'other') plan.reported.push(`${entry.fileName}: not a memory file (${entry.kind})`);
  }
  return plan;
}

/** Names in the target a copy may not take (lower-cased): its memories' files and the files on disk. */
function takenNames(rows: readonly MemoryRow[], target: string, onDisk: ReadonlySet<string>): Set<string> {
  const taken = new Set<string>();
  for (const row of rows) if (row.dir === target) taken.add(row.file.toLowerCase());
  for (const file of onDisk) taken.add((file.startsWith('_archive/') ? file.slice('_archive/'.length) : file).toLowerCase());
  return taken;
}

/**
 * A memory's `_graph/<file>.json` sidecar, checked against the distiller's own graph schema (the
 * vocabulary of entity types and relations): undefined when there is none.
 */
function sidecarGraph(text: string | undefined): { graph: DistillGraph } | { why: string } | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { why: 'not JSON' };
  }
  const parsed = DistillGraph.safeParse(json);
  if (!parsed.success) return { why: `not a graph sidecar (${parsed.error.issues.slice(0, 2).map((issue) => `${issue.path.join('.') || 'the file'}: ${issue.message}`).join('; ')})` };
  if (parsed.data.entities.length === 0 && parsed.data.relations.length === 0) return undefined;
  return { graph: parsed.data };
}
