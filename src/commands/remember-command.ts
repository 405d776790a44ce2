import { z } from 'zod';
import { cleanLesson, describeLesson } from '../capture/lesson-text.js';
import { detectCorrection } from '../capture/correction-detector.js';
import { contentHash } from '../content-hash.js';
import { EngramError } from '../errors.js';
import { MEMORY_BODY_CAP, MemoryProposed } from '../events/memory-events.js';
import { MEMORY_TYPES } from '../events/memory-kinds.js';
import { GLOBAL_MEMORY_DIR, projectMemoryDir } from '../paths.js';
import { findSameMemoryIn } from '../projections/memories/match-memory.js';
import { memoryKey } from '../projections/memories/memories.js';
import { committedRow } from '../projections/memories/memories-rows.js';
import { defineCommand } from './command.js';
import { memoryView } from './memory-view.js';

/** A lesson someone asked to keep starts where the correction detector's lessons start. */
const EXPLICIT_CONFIDENCE = 0.6;
/** An inference starts where the distiller's candidates start: provisional, until corroborated. */
const INFERRED_CONFIDENCE = 0.3;

/**
 * `memories.remember` (the MCP server's `remember`): the agent records a memory through the
 * same event and gates as every other proposal. A MemoryProposed of origin `agent`: what the
 * user asked to keep is active; what the agent only inferred is provisional until a later
 * session says it again; one that says what a memory of its directory and type already says
 * reinforces that one. The event's id derives from what is said, so a call sent twice (a retry)
 * is stored once. Prints JSON: what happened and the memory as it is now.
 */
export const rememberCommand = defineCommand({
  name: 'memories.remember',
  access: 'write',
  args: z.object({
    text: z.string().trim().min(1).max(MEMORY_BODY_CAP),
    /** Default: the correction detector's when the text reads like a lesson, else feedback. */
    type: z.enum(MEMORY_TYPES).exclude(['unknown']).optional(),
    /** The project's directory; '' for a memory that holds in every project. */
    project: z.string().max(4096),
    /** Default false: the user asked for it, so it is active at once. */
    inferred: z.boolean().default(false),
    /** The session the agent works in, when it is known; '' for none. */
    session: z.string().max(200).default(''),
  }),
  async run(engine, args, output) {
    const lesson = detectCorrection(args.text);
    const described = lesson ?? describeLesson(cleanLesson(args.text.split('\n').find((line) => line.trim() !== '') ?? args.text));
    if (described.name === '' || described.description === '') throw new EngramError('USAGE', 'the text has no words to remember');
    const type = args.type ?? lesson?.type ?? 'feedback';
    const global = args.project === '' || lesson?.scope === 'global';
    const project = global ? '' : args.project;
    const key = contentHash(`${project}\n${type}\n${args.text}`);
    const memoryId = `agent:${key}`;
    const dir = global ? GLOBAL_MEMORY_DIR : projectMemoryDir(project);
    const memories = engine.runner.rowsOf('memories');
    // What the projection will decide (the same function), so the answer can say it.
    const same = (await memories.get(memoryKey(memoryId))) ? undefined : await findSameMemoryIn(memories, dir, type, described);
    const appended = await engine.record([
      {
        id: `remember:${key}`,
        type: MemoryProposed.type,
        schemaVersion: MemoryProposed.schemaVersion,
        ts: engine.clock.now().toISOString(),
        session: args.session,
        project,
        data: {
          memoryId,
          origin: 'agent',
          scope: global ? 'global' : 'project',
          name: described.name,
          description: described.description,
          type,
          body: args.text.endsWith('\n') ? args.text : `${args.text}\n`,
          status: args.inferred ? 'provisional' : 'active',
          confidence: args.inferred ? INFERRED_CONFIDENCE : EXPLICIT_CONFIDENCE,
        },
      },
    ]);
    const row = (await committedRow(memories, memoryKey(memoryId))) ?? (same === undefined ? undefined : await committedRow(memories, memoryKey(same)));
    if (!row) throw new EngramError('PROJECTOR_FAILED', `the memories projection did not take ${described.name}`);
    const outcome = appended === 0 ? 'already recorded' : row.id === memoryId ? 'created' : 'reinforced';
    await output.out(`${JSON.stringify({ outcome, memory: memoryView(engine, row) })}\n`);
    return 0;
  },
});
