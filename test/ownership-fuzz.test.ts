import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import type { Envelope } from '../src/events/envelope.js';
import { readMemoryDir } from '../src/memories/read-memory-dir.js';
import { projectMemoryDir } from '../src/paths.js';
import { openEngine, type ComposedEngine } from '../src/composition/open-engine.js';
import { planImport } from '../src/commands/import-plan.js';
import { reconcileNow } from '../src/commands/reconcile-command.js';
import { listMemories } from '../src/commands/memory-lookup.js';
import { useTempHomes, walkFiles, type TempHome } from './support/temp-home.js';
import { seededRandom } from '../bench/seeded-random.js';

/**
 * DESIGN.md invariant 6 under random interleavings (seeded): hook events, hand edits, hand
 * deletes, renames, new files by hand, lines added to MEMORY.md, imports, forget and restore,
 * reconcile, rebuild, a projection reset and lost projection state (what an upgrade or an
 * unreadable checkpoint does) over one memory directory. Every byte a person wrote is, after each
 * step, on disk or in the log; at the end a rebuild writes the same files. Bounded here by a
 * fixed number of steps (ENGRAM_FUZZ_STEPS, default 200), so a run does the same work whatever
 * the machine's load: with this seed, every kind of step comes several times (checked below),
 * each one after a different mix of the others, and the invariant is checked after every one.
 * ENGRAM_FUZZ_MS runs for a time budget instead; `node scripts/ownership-fuzz.mjs` runs it
 * longer that way, over seeds.
 */
const newHome = useTempHomes();
const project = '/home/dev/src/fuzz';
const dir = projectMemoryDir(project);
const budgetMs = process.env.ENGRAM_FUZZ_MS ? Number(process.env.ENGRAM_FUZZ_MS) : undefined;
const stepCount = Number(process.env.ENGRAM_FUZZ_STEPS ?? 200);
const seed = Number(process.env.ENGRAM_FUZZ_SEED ?? 20261201);

const rng = seededRandom;

describe('ownership under random interleavings', () => {
  it(`never loses a byte a person wrote, and a rebuild writes the same files (seed ${seed})`, async () => {
    const home = newHome();
    const random = rng(seed);
    const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[Math.floor(random() * items.length)]);
    const at = new Date('2026-11-01T10:00:00.000Z');
    const memory = join(home.paths.claude, dir);
    let engine = await open(home, at);
    let n = 0;
    const envelope = (type: string, data: unknown): Envelope => ({
      id: `fuzz-${seed}-${String(++n).padStart(6, '0')}`, type, schemaVersion: 1, ts: new Date(at.getTime() + n * 1000).toISOString(), session: 's1', project, data,
    });
    /** What people wrote, each a unique token, that must stay on disk or in the log. */
    const written = new Set<string>();
    const ids: string[] = [];
    const memoryFiles = () => (existsSync(memory) ? readdirSync(memory).filter((name) => name.endsWith('.md') && name !== 'MEMORY.md' && !name.startsWith('auto-') && statSync(join(memory, name)).isFile()) : []);
    const token = () => `TOKEN${++n}x${Math.floor(random() * 1e9)}`;
    const steps: string[] = [];
    const logSeen: LogSeen = { text: '', upTo: 0 };

    const ops: Record<string, () => Promise<void>> = {
      async prompt() {
        await engine.record([envelope('PromptSubmitted', { prompt: `prompt ${n} about pnpm and tests`, chars: 30, truncated: false })]);
      },
      async propose() {
        const id = `m${n + 1}`;
        ids.push(id);
        await engine.record([envelope('MemoryProposed', { memoryId: id, origin: 'user', scope: 'project', name: `Note ${id}`, description: `about ${id}`, type: pick(['feedback', 'project', 'user'] as const), body: `body of ${id}\n`, status: 'active', confidence: 0.5 })]);
      },
      async reinforce() {
        const id = pick(ids);
        if (id) await engine.record([envelope('MemoryReinforced', { memoryId: id, by: 'user' })]);
      },
      async handEdit() {
        const file = pick(memoryFiles());
        if (!file) return;
        const t = token();
        writeFileSync(join(memory, file), `${readFileSync(join(memory, file), 'utf8')}${t}\n`);
        written.add(t);
      },
      async handNew() {
        const t = token();
        mkdirSync(memory, { recursive: true });
        // A name of its own: a person writing over their own file is not engram losing it.
        writeFileSync(join(memory, `hand-${n}.md`), `---\nname: Hand ${n}\ndescription: written by hand ${n}\ntype: user\n---\n${t}\n`);
        written.add(t);
      },
      async handDelete() {
        const file = pick(memoryFiles());
        if (!file) return;
        // What the person deleted is theirs to delete: its tokens leave the set.
        for (const t of [...written]) if (readFileSync(join(memory, file), 'utf8').includes(t)) written.delete(t);
        rmSync(join(memory, file));
      },
      async rename() {
        const file = pick(memoryFiles());
        if (file) renameSync(join(memory, file), join(memory, `renamed-${n}-${file}`));
      },
      async indexLine() {
        if (!existsSync(join(memory, 'MEMORY.md'))) return;
        const t = token();
        const file = pick(memoryFiles());
        writeFileSync(join(memory, 'MEMORY.md'), `${readFileSync(join(memory, 'MEMORY.md'), 'utf8')}- mine ${t}${file ? ` see [${file}](${file})` : ''}\n`);
        written.add(t);
      },
      async importDir() {
        const source = join(home.root, `source-${++n}`);
        mkdirSync(source);
        const t = token();
        const name = pick(['team.md', 'notes.md', ...memoryFiles()]) ?? 'team.md';
        writeFileSync(join(source, name), `---\nname: Imported ${n}\ndescription: imported ${n}\ntype: project\n---\n${t}\n`);
        written.add(t);
        const onDisk = new Set(memoryFiles().map((file) => file.toLowerCase()));
        const plan = planImport({ read: await readMemoryDir(source), target: dir, project, inPlace: false, rows: await listMemories(engine, undefined), at: at.toISOString(), onDisk });
        await engine.record(plan.events);
      },
      async forget() {
        const id = pick(ids);
        if (id) await engine.record([envelope('MemoryForgotten', { memoryId: id, reason: 'fuzz' })]);
      },
      async restore() {
        const id = pick(ids);
        if (id) await engine.record([envelope('MemoryRestored', { memoryId: id })]);
      },
      async reconcile() {
        await reconcileNow(engine, undefined);
      },
      async rebuild() {
        await engine.runner.rebuild();
      },
      async reset() {
        await engine.runner.rebuild({ only: ['memories'] });
      },
      async upgrade() {
        // The projection state gone whole (an upgrade that starts over, an unreadable store).
        await engine.close();
        rmSync(home.paths.state, { recursive: true, force: true });
        engine = await open(home, at);
      },
    };
    const weights: Array<[string, number]> = [
      ['prompt', 3], ['propose', 4], ['reinforce', 4], ['handEdit', 5], ['handNew', 2], ['handDelete', 1], ['rename', 1], ['indexLine', 2],
      ['importDir', 1], ['forget', 2], ['restore', 2], ['reconcile', 4], ['rebuild', 1], ['reset', 1], ['upgrade', 1],
    ];
    const total = weights.reduce((sum, [, w]) => sum + w, 0);
    const started = Date.now();
    const more = () => (budgetMs === undefined ? steps.length < stepCount : Date.now() - started < budgetMs);
    try {
      while (more()) {
        let r = random() * total;
        const op = weights.find(([, w]) => (r -= w) < 0)![0];
        steps.push(op);
        if (process.env.ENGRAM_FUZZ_TRACE) console.log(op, n, JSON.stringify(Object.keys(walkFiles(home.paths.claude))), [...written].join(","));
        await ops[op]!();
        const lost = await missing(engine, home, written, logSeen);
        expect(lost, `after ${steps.length} steps (${steps.slice(-8).join(' → ')}), seed ${seed}`).toEqual([]);
      }
      // Settled: a rebuild writes the same files.
      await reconcileNow(engine, undefined);
      await engine.runner.catchUp();
      const before = walkFiles(home.paths.claude);
      await engine.runner.rebuild();
      expect(walkFiles(home.paths.claude)).toEqual(before);
      expect(await missing(engine, home, written, logSeen)).toEqual([]);
      expect(steps.length).toBeGreaterThan(20);
      // Every kind of step ran, the rarest (weight 1 of 34) several times: 200 steps give each
      // ≈ 6 on average, and this seed's draw is checked rather than hoped for.
      const counts = Object.fromEntries(weights.map(([op]) => [op, steps.filter((s) => s === op).length]));
      if (budgetMs === undefined && stepCount >= 200) expect(Object.entries(counts).filter(([, c]) => c < 3), JSON.stringify(counts)).toEqual([]);
      console.log(`ownership fuzz: seed ${seed}, ${steps.length} steps, ${written.size} person-written tokens kept`);
    } finally {
      await engine.close();
    }
  }, (budgetMs ?? 60_000) + 120_000);
});

function open(home: TempHome, at: Date): Promise<ComposedEngine> {
  return openEngine({ paths: home.paths, clock: fixedClock(at), maintainEveryMs: Number.POSITIVE_INFINITY });
}

/** The log as text, as far as it was read: it only grows, so each look reads on from there. */
interface LogSeen {
  text: string;
  upTo: number;
}

/** Tokens neither in a file under Claude's directory nor in the log. */
async function missing(engine: ComposedEngine, home: TempHome, written: ReadonlySet<string>, seen: LogSeen): Promise<string[]> {
  const disk = Object.values(walkFiles(home.paths.claude)).join('\n');
  for await (const batch of engine.log.read({ from: seen.upTo + 1 })) {
    seen.text += JSON.stringify(batch);
    seen.upTo = batch.at(-1)!.seq;
  }
  return [...written].filter((t) => !disk.includes(t) && !seen.text.includes(t));
}
