import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house's layout (docs/architecture.md "Rooms and floors"), checked from the sources alone:
 * no file imports itself round a circle, no room (a folder under src/) imports a room that imports
 * it back, and every import between rooms runs down the floors below, or is named in UPWARD with
 * its reason. Type imports count like any other: a room written in terms of another's types
 * depends on it as much, and today none needs the exception. Dynamic `import()` counts too: it
 * loads later, but the arrow is the same.
 */

/** Bottom to top: a room may import only rooms on lower floors. */
const FLOORS: readonly (readonly string[])[] = [
  ['(root)'], // errors, clock, paths, atomic writes, content hash, build id
  ['events', 'indexes', 'ownership', 'spool'],
  ['memories', 'redaction'],
  ['capture', 'distill', 'log'],
  ['projections', 'ingest'],
  ['backfill', 'recall', 'skills', 'engine'],
  ['config', 'reactors', 'sync'],
  ['composition'],
  ['commands'],
  ['socket', 'viewer'],
  ['launch'],
  ['worker', 'plugin', 'mcp'],
  ['hooks'],
  ['cli'],
];

/** Imports that run up or across a floor, each with why it has to: `from-file -> to-file`. */
const UPWARD: Readonly<Record<string, string>> = {};

/** src/worker/ until scripts/move-rooms.mjs has moved it: each part is already the room it becomes. */
const WORKERS_ROOMS: Readonly<Record<string, string>> = { engine: 'engine', ingest: 'ingest', reactors: 'reactors', commands: 'commands', socket: 'socket' };

const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(SRC, path)] : [];
  });
}

const SPECIFIER = /(?:^|[;\s])(?:import|export)\s[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|[;\s])import\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** file → the src/ files it imports (paths relative to src/, `.ts`); imports of files outside src/ are left out. */
function importGraph(): Map<string, string[]> {
  const files = sources(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const spec = match[1] ?? match[2] ?? match[3]!;
      const target = normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (known.has(target)) targets.add(target);
      else if (known.has(join(target, 'index.ts'))) targets.add(join(target, 'index.ts'));
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '(root)';
  if (parts[0] === 'workers') return parts.length === 2 ? 'worker' : (WORKERS_ROOMS[parts[1]!] ?? `workers/${parts[1]}`);
  return parts[0]!;
}

/** Strongly connected parts of more than one node (Tarjan), each a circle. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const part: string[] = [];
      let popped: string;
      do {
        popped = stack.pop()!;
        onStack.delete(popped);
        part.push(popped);
      } while (popped !== node);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The imports inside a circle, `a -> b`, so a failure says which to move. */
function edgesWithin(graph: ReadonlyMap<string, readonly string[]>, part: readonly string[], nodeOf: (file: string) => string = (f) => f): string[] {
  const inside = new Set(part);
  const edges: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      if (nodeOf(from) !== nodeOf(to) && inside.has(nodeOf(from)) && inside.has(nodeOf(to))) edges.push(`src/${from} -> src/${to}`);
    }
  }
  return edges;
}

const graph = importGraph();

describe('the import graph of src/', () => {
  it('has no circle of files', () => {
    const found = circles(graph).map((part) => `${part.join(' ↔ ')}:\n    ${edgesWithin(graph, part).join('\n    ')}`);
    expect(found, `files that import each other round a circle:\n  ${found.join('\n  ')}`).toEqual([]);
  });

  it('has no circle of rooms', () => {
    const rooms = new Map<string, string[]>();
    for (const [from, tos] of graph) {
      const list = rooms.get(roomOf(from)) ?? [];
      for (const to of tos) if (roomOf(to) !== roomOf(from) && !list.includes(roomOf(to))) list.push(roomOf(to));
      rooms.set(roomOf(from), list);
    }
    const found = circles(rooms).map((part) => `${part.join(' ↔ ')}: move what they share down to the lower room:\n    ${edgesWithin(graph, part, roomOf).join('\n    ')}`);
    expect(found, `rooms that import each other round a circle:\n  ${found.join('\n  ')}`).toEqual([]);
  });

  it('has each room on a floor, and every import between rooms running down (or named in UPWARD with its reason)', () => {
    const floor = new Map(FLOORS.flatMap((rooms, level) => rooms.map((room) => [room, level] as const)));
    const unplaced = [...new Set([...graph.keys()].map(roomOf))].filter((room) => !floor.has(room));
    expect(unplaced, `rooms with no floor: give each one in FLOORS here and in docs/layout.md`).toEqual([]);
    const up: string[] = [];
    for (const [from, tos] of graph) {
      for (const to of tos) {
        const [a, b] = [roomOf(from), roomOf(to)];
        if (a === b || floor.get(b)! < floor.get(a)!) continue;
        const edge = `src/${from} -> src/${to}`;
        if (!(edge in UPWARD)) up.push(`${edge}  (${a}, floor ${floor.get(a)}, imports ${b}, floor ${floor.get(b)})`);
      }
    }
    expect(up, `imports that do not run down: move the piece down, or name the import in UPWARD with why:\n  ${up.join('\n  ')}`).toEqual([]);
    const stale = Object.keys(UPWARD).filter((edge) => {
      const [from, to] = edge.split(' -> ').map((path) => path.replace(/^src\//, ''));
      return !graph.get(from!)?.includes(to!);
    });
    expect(stale, 'UPWARD names imports that are gone: remove them').toEqual([]);
  });
});
