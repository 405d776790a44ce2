// Reads the recall evaluation set (fixtures/recall/, written by generate-recall-fixtures.ts):
// each memory directory's recallable memories as the lexical index reads them (through the same
// recallDoc as the projection, graph sidecars included), and the queries, checked with zod.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { EngramError } from '../src/errors.js';
import { DistillGraph } from '../src/events/distill-answer-schema.js';
import { parseMemoryFile } from '../src/memories/memory-file.js';
import { projectSlug } from '../src/paths.js';
import { isRecallable, recallDoc } from '../src/projections/recall/recall-doc.js';
import type { LexicalDoc } from '../src/indexes/bm25.js';
import type { EvalQuery } from '../src/recall/recall-eval.js';

export interface EvalSet {
  /** By directory slug (`global` for the global one): its active memories. */
  readonly dirs: ReadonlyMap<string, readonly LexicalDoc[]>;
  /** By memory id, of the recallable ones that have a sidecar: its graph (the vector text and the graph ranker read it). */
  readonly graphs: ReadonlyMap<string, DistillGraph>;
  readonly dev: readonly EvalQuery[];
  readonly test: readonly EvalQuery[];
}

const Query = z.object({
  id: z.string(),
  text: z.string(),
  project: z.string(),
  relevant: z.array(z.string()),
  kind: z.enum(['lexical', 'paraphrase', 'entity', 'none']),
});
/** A graph sidecar as the memories projection writes it: the memory's id and file, then its graph. */
const Sidecar = z.extend(DistillGraph, { memoryId: z.string(), file: z.string() });

/** The directory slug a query's project reads, then the global one. */
export function dirsFor(project: string): [string, string] {
  return [projectSlug(project), 'global'];
}

export function loadEvalSet(root: string): EvalSet {
  const dirs = new Map<string, LexicalDoc[]>();
  const graphs = new Map<string, DistillGraph>();
  const memories = join(root, 'memories');
  for (const slug of readdirSync(memories).sort()) {
    const dir = join(memories, slug);
    const docs: LexicalDoc[] = [];
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'MEMORY.md').sort()) {
      const parsed = parseMemoryFile(readFileSync(join(dir, file), 'utf8'), file);
      const id = parsed.extra.metadata.find((field) => field.key === 'memory_id')?.value;
      if (typeof id !== 'string') throw new EngramError('MEMORY_FILE_INVALID', `${slug}/${file}: no memory_id`);
      const sidecarPath = join(dir, '_graph', `${file}.json`);
      const sidecar = existsSync(sidecarPath) ? parseWith(Sidecar, readFileSync(sidecarPath, 'utf8'), sidecarPath) : undefined;
      const source = {
        id,
        file,
        name: parsed.name,
        description: parsed.description,
        body: parsed.body,
        type: parsed.type,
        tier: parsed.tier,
        confidence: parsed.confidence ?? 0.5,
        lastReinforced: parsed.last_reinforced ?? parsed.created ?? '',
        extra: parsed.extra,
        graph: sidecar && { entities: sidecar.entities, relations: sidecar.relations },
        status: parsed.status ?? 'active',
        archived: undefined,
      };
      if (!isRecallable(source)) continue;
      docs.push(recallDoc(source));
      if (source.graph) graphs.set(id, source.graph);
    }
    dirs.set(slug, docs);
  }
  const queries = (name: string) =>
    readFileSync(join(root, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line, i) => parseWith(Query, line, `${name}:${i + 1}`));
  // The no-answer prompts written by hand from questions developers ask (queries-none.jsonl, when
  // the set has it), half to each side, so false recall is a rate and not a one-prompt margin.
  const none = existsSync(join(root, 'queries-none.jsonl')) ? queries('queries-none.jsonl') : [];
  return { dirs, graphs, dev: [...queries('queries-dev.jsonl'), ...none.filter((_, i) => i % 2 === 0)], test: [...queries('queries-test.jsonl'), ...none.filter((_, i) => i % 2 === 1)] };
}

function parseWith<T>(schema: z.ZodMiniType<T>, text: string, where: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new EngramError('USAGE', `${where}: not JSON`, { cause });
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new EngramError('USAGE', `${where}: ${result.error.message}`, { cause: result.error });
  return result.data;
}
