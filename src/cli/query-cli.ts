import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recallIndexViewPath } from '../projections/view-paths.js';
import { describeIssues } from '../events/describe-issues.js';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { EngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { embedderChoice, embedderFor } from '../recall/embedders/embedder-choice.js';
import type { RecalledMemory } from '../recall/recall.js';
import { Recaller } from '../recall/recaller.js';
import { VectorStore } from '../indexes/vector-store.js';
import type { Terminal } from './run-engine-command.js';

const USAGE = 'engram query TEXT [--project PATH] [--limit K] [--all] [--json] | engram query --batch FILE --json';

/** A line of a `--batch` file. */
const batchLine = z.object({
  id: z.union([z.string().max(200), z.number()]),
  text: z.string().max(1_000_000),
  /** The directory the prompt is typed in; absent or '': global memories only. */
  project: z.string().max(4096).default(''),
});

/** What `--json` prints of one recalled memory. */
function asJson(memory: RecalledMemory) {
  return { file: memory.file, name: memory.name, score: memory.score, signals: memory.signals };
}

/**
 * `engram query`: the recall pipeline the prompt hook runs, from the command line, in this
 * process (it reads the index files and the vectors table, never the log, so it runs beside a
 * worker). The embedder is ENGRAM_EMBEDDER's; its model is loaded once, for a whole batch.
 */
export async function queryCli(args: string[], ctx: { paths: EngramPaths; clock: Clock; env: NodeJS.ProcessEnv; terminal: Terminal }): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      limit: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      batch: { type: 'string' },
    },
  });
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new EngramError('USAGE', `--limit takes a positive whole number; ${USAGE}`);
  const text = positionals.join(' ');
  if (values.batch === undefined && text.trim() === '') throw new EngramError('USAGE', USAGE);
  if (values.batch !== undefined && (text !== '' || !values.json)) throw new EngramError('USAGE', `--batch reads its queries from the file and prints JSON lines: ${USAGE}`);
  const batch = values.batch === undefined ? undefined : readBatch(values.batch);
  const project = batch ? undefined : resolve(values.project ?? process.cwd());
  // A mistyped project recalls nothing, which would read as "nothing relevant". A project engram
  // has memories of counts even where its directory is gone (moved, or another machine's).
  if (values.project !== undefined && project !== undefined && !existsSync(project) && !existsSync(join(ctx.paths.views, recallIndexViewPath(project)))) {
    throw new EngramError('USAGE', `--project ${values.project}: no such directory, and no memories of a project there; name the directory the project is in`);
  }

  const model = embedderFor(embedderChoice(ctx.env), ctx.paths);
  const store = model ? new VectorStore({ dir: ctx.paths.vectors, model: model.model, dimensions: model.dimensions }) : undefined;
  const recaller = new Recaller({ paths: ctx.paths, vectors: model && store ? { store, embedder: model } : undefined });
  const out = (line: string) => ctx.terminal.stdout.write(line);
  try {
    const ask = async (query: string, project: string) => {
      const result = await recaller.ask({ text: query, project, now: ctx.clock.now(), all: values.all, ...(limit ? { limit } : {}) });
      for (const problem of result.problems) ctx.terminal.stderr.write(`engram query: ${problem} (left out)\n`);
      return result.memories;
    };
    if (!batch) {
      const memories = await ask(text, project!);
      if (values.json) out(`${JSON.stringify(memories.map(asJson))}\n`);
      else if (memories.length === 0) out('nothing recalled\n');
      else {
        // Fused scores are small (rank fusion: 1/(60+rank)); three significant digits keep them apart.
        const rows = memories.map((m) => [formatScore(m.score), m.signals.join('+'), m.name, m.file]);
        const widths = [5, 7, 4].map((w, i) => Math.max(w, ...rows.map((r) => r[i]!.length)));
        out(`${['SCORE', 'SIGNALS', 'NAME'].map((h, i) => h.padEnd(widths[i]!)).join('  ')}  FILE\n`);
        for (const r of rows) out(`${r.slice(0, 3).map((c, i) => c.padEnd(widths[i]!)).join('  ')}  ${r[3]}\n`);
      }
      return 0;
    }
    let bad = 0;
    for (const line of batch) {
      if ('error' in line) {
        bad++;
        ctx.terminal.stderr.write(`engram query --batch: line ${line.number}: ${line.error}\n`);
        continue;
      }
      const memories = await ask(line.text, line.project === '' ? '' : resolve(line.project));
      out(`${JSON.stringify({ id: line.id, results: memories.map(asJson) })}\n`);
    }
    return bad > 0 ? 1 : 0;
  } finally {
    recaller.close();
    await store?.close();
    await model?.close();
  }
}

/** Three significant digits: 0.0164, 0.00820, 1.00. */
export function formatScore(score: number): string {
  if (score === 0) return '0';
  return Math.abs(score) < 1e-6 ? score.toExponential(2) : score.toPrecision(3);
}

type BatchEntry = z.infer<typeof batchLine> | { number: number; error: string };

/** The batch file's queries, a line that cannot be read kept as its error (the others still run). */
function readBatch(path: string): BatchEntry[] {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new EngramError('USAGE', `cannot read the batch file ${path}`, { cause });
  }
  return content.split('\n').flatMap((raw, i): BatchEntry[] => {
    if (raw.trim() === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return [{ number: i + 1, error: 'not JSON' }];
    }
    const parsed = batchLine.safeParse(json);
    return parsed.success ? [parsed.data] : [{ number: i + 1, error: `expected {id, text, project}: ${describeIssues(parsed.error)}` }];
  });
}
