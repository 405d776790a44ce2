// The LoCoMo benchmark (snap-research/LoCoMo, data/locomo10.json; CC BY-NC 4.0, so never in this
// repository) as recall sees it after `engram import`: every dialog turn one memory file (name:
// the speaker and the session's date; description and body: what was said), every question with
// the turns its evidence names. Read from a path given (`--locomo PATH`, ENGRAM_LOCOMO) or the
// cache `.cache/locomo/locomo10.json`; development uses only the first five conversations (the
// other five are the held-out half that judges recall, run by hand outside with
// `--conversations all`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { EngramError } from '../src/errors.js';
import { recallDoc } from '../src/projections/recall/recall-doc.js';
import type { LexicalDoc } from '../src/indexes/bm25.js';

/** The dev half: tune and calibrate on these only. */
export const DEV_CONVERSATIONS: readonly string[] = ['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43'];

export const LOCOMO_HOW_TO =
  'LoCoMo is not in this repository (CC BY-NC 4.0). Download data/locomo10.json from the public GitHub repository snap-research/LoCoMo ' +
  'and pass it: npm run eval -- --locomo PATH (or ENGRAM_LOCOMO=PATH, or copy it to .cache/locomo/locomo10.json).';

const Turn = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string() });
const Qa = z.object({ question: z.string(), evidence: z.optional(z.array(z.string())), category: z.number() });
const Conversation = z.object({ sample_id: z.string(), qa: z.array(Qa), conversation: z.record(z.string(), z.unknown()) });
const Locomo = z.array(Conversation);

export interface LocomoMemory {
  readonly doc: LexicalDoc;
  /** The session it was said in, and its place there: what "neighbouring turns" means. */
  readonly session: number;
  readonly turn: number;
  /** What the vectors embed (indexed-text.ts: name, description, body). */
  readonly text: string;
}

export interface LocomoQuestion {
  readonly id: string;
  readonly conversation: string;
  readonly text: string;
  readonly category: number;
  /** Memory ids of its evidence turns. */
  readonly relevant: readonly string[];
}

export interface LocomoConversation {
  readonly id: string;
  readonly memories: readonly LocomoMemory[];
  readonly questions: readonly LocomoQuestion[];
}

/** Where the file is: `--locomo PATH`, ENGRAM_LOCOMO, or the cache; undefined when none is there. */
export function locomoPath(argv: readonly string[], env: NodeJS.ProcessEnv, cacheDir: string): string | undefined {
  const at = argv.indexOf('--locomo');
  const given = at >= 0 ? argv[at + 1] : env.ENGRAM_LOCOMO;
  if (given) {
    if (!existsSync(given)) throw new EngramError('USAGE', `no LoCoMo file at ${given}. ${LOCOMO_HOW_TO}`);
    return resolve(given);
  }
  const cached = resolve(cacheDir, 'locomo10.json');
  return existsSync(cached) ? cached : undefined;
}

/**
 * The conversations of `path` named in `only` (default the dev five; 'all' for every one), each
 * turn a memory as `engram import` of one memory file per turn makes it. Questions without
 * evidence, and the adversarial category 5 (questions about what was never said), are left out.
 */
export function loadLocomo(path: string, only: readonly string[] | 'all' = DEV_CONVERSATIONS): LocomoConversation[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new EngramError('USAGE', `${path} is not LoCoMo's JSON. ${LOCOMO_HOW_TO}`, { cause });
  }
  const parsed = Locomo.safeParse(json);
  if (!parsed.success) throw new EngramError('USAGE', `${path} is not LoCoMo's JSON: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
  return parsed.data
    .filter((c) => only === 'all' || only.includes(c.sample_id))
    .map((c) => {
      const memories: LocomoMemory[] = [];
      for (let session = 1; ; session++) {
        const turns = c.conversation[`session_${session}`];
        if (turns === undefined) {
          if (c.conversation[`session_${session + 1}`] === undefined) break;
          continue;
        }
        const date = String(c.conversation[`session_${session}_date_time`] ?? '');
        z.array(Turn)
          .parse(turns)
          .forEach((turn, i) => {
            const memory = turnMemory(c.sample_id, turn, date);
            memories.push({ ...memory, session, turn: i });
          });
      }
      const ids = new Set(memories.map((m) => m.doc.id));
      const questions = c.qa.flatMap((qa, i): LocomoQuestion[] => {
        const relevant = [...new Set((qa.evidence ?? []).flatMap(evidenceIds).map((dia) => `${c.sample_id}:${dia}`))].filter((id) => ids.has(id));
        if (qa.category === 5 || relevant.length === 0) return [];
        return [{ id: `${c.sample_id}#${i}`, conversation: c.sample_id, text: qa.question, category: qa.category, relevant }];
      });
      return { id: c.sample_id, memories, questions };
    });
}

/** A turn as a memory file imported: name speaker and date, description and body what was said. */
function turnMemory(conversation: string, turn: { speaker: string; dia_id: string; text: string }, date: string): Omit<LocomoMemory, 'session' | 'turn'> {
  const name = `${turn.speaker} on ${date}`;
  const doc = recallDoc({
    id: `${conversation}:${turn.dia_id}`,
    file: `${turn.dia_id.replace(/[^A-Za-z0-9]/g, '-')}.md`,
    name,
    description: turn.text,
    body: `${turn.speaker}: ${turn.text}`,
    type: 'project',
    tier: undefined,
    confidence: 1,
    lastReinforced: '',
    extra: { top: [], metadata: [] },
    graph: undefined,
  });
  return { doc, text: [name, turn.text, `${turn.speaker}: ${turn.text}`].join('\n') };
}

/** LoCoMo's evidence ids, as written (`D1:3`, a few `D1:3; D2:4` or `D:1:3`), made `D1:3`. */
function evidenceIds(raw: string): string[] {
  return raw
    .split(/[;,\s]+/)
    .map((id) => /^D:?(\d+):0*(\d+)$/.exec(id.trim()))
    .flatMap((m) => (m ? [`D${m[1]}:${m[2]}`] : []));
}
