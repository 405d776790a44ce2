import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from './seeded-random.js';

export interface ImportBenchResult {
  memories: number;
  projects: number;
  /** Wall time of every `engram import`, one per project, one after the other. */
  ms: number;
  /** CPU (user + system) the imports used, where /proc says it; else undefined. */
  cpuMs: number | undefined;
}

/**
 * `engram import` of `memories` one-line memory files spread over `projects` directories, into a
 * fresh home with vectors off, one real CLI process per directory as a person would run it.
 */
export function importBench(options: { repo: string; dir: string; memories: number; projects: number }): ImportBenchResult {
  const cli = join(options.repo, 'dist', 'src', 'cli', 'main.js');
  const random = seededRandom(22);
  const words = 'build test deploy cache index query schema ledger vacuum migrate lint format release branch review docker runner config token parser'.split(' ');
  const sources: string[] = [];
  for (let p = 0; p < options.projects; p++) {
    const source = join(options.dir, 'sources', `project-${p}`);
    mkdirSync(source, { recursive: true });
    for (let i = 0; i < options.memories / options.projects; i++) {
      const text = Array.from({ length: 8 }, () => words[Math.floor(random() * words.length)]).join(' ');
      writeFileSync(join(source, `note-${i}.md`), `${text} (note ${p}-${i})\n`);
    }
    sources.push(source);
  }
  const env = {
    ...process.env,
    ENGRAM_HOME: join(options.dir, 'home'),
    CLAUDE_CONFIG_DIR: join(options.dir, 'claude'),
    ENGRAM_EMBEDDER: 'off',
    ENGRAM_WORKER_AUTOSTART: '0',
    ENGRAM_DISTILLER: 'off',
    ENGRAM_LLM_CMD: '',
  };
  mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  sources.forEach((source, p) => {
    const result = spawnSync(process.execPath, [cli, 'import', source, '--project', join(options.dir, 'projects', `p${p}`)], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`engram import failed (${result.status}): ${result.stderr}`);
  });
  const ms = performance.now() - started;
  const cpuAfter = childrenCpuMs();
  return { memories: options.memories, projects: options.projects, ms, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

/** CPU time of this process's waited-for children (cutime + cstime), in ms; Linux only. */
function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // After the name: state is field 3, so cutime (16) and cstime (17) sit at 13 and 14 here.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return undefined;
  }
}
