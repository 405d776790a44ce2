import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

export interface ScratchHome {
  root: string;
  env: NodeJS.ProcessEnv & { ENGRAM_HOME: string; CLAUDE_CONFIG_DIR: string };
  /** Runs the built `engram` CLI against this home; `extraEnv` overrides for this call only. */
  engram(args: string[], extraEnv?: NodeJS.ProcessEnv): { code: number; stdout: string; stderr: string };
  /** User-wide skills in this home's Claude directory, as `<claude>/skills/<name>/SKILL.md`. */
  installUserSkills(names: string[]): void;
}

/** A temporary ENGRAM_HOME and CLAUDE_CONFIG_DIR for the demo and the fixture recorder. */
export function scratchHome(prefix: string, extraEnv: NodeJS.ProcessEnv = {}): ScratchHome {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const env = { ...process.env, ENGRAM_HOME: join(root, 'engram'), CLAUDE_CONFIG_DIR: join(root, 'claude'), ...extraEnv };
  return {
    root,
    env,
    engram(args, callEnv = {}) {
      const result = spawnSync(process.execPath, [join(repoRoot, 'dist', 'src', 'cli', 'main.js'), ...args], {
        env: { ...env, ...callEnv },
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      return { code: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
    },
    installUserSkills(names) {
      for (const name of names) {
        mkdirSync(join(env.CLAUDE_CONFIG_DIR, 'skills', name), { recursive: true });
        writeFileSync(join(env.CLAUDE_CONFIG_DIR, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${name}\n---\n`);
      }
    },
  };
}
