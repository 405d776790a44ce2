import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { parseDistillAnswer } from '../distill/distill-answer.js';
import { EngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import type { Embedder } from '../indexes/embedder.js';
import { redactCapped } from '../redaction/redact-capped.js';
import { llmFromEnv } from './distiller-from-env.js';
import type { CuratorOptions } from './skill-curator.js';
import { SKILL_MATCH_THRESHOLD } from './skill-matcher.js';
import type { AuditDeps } from './turn-audit.js';

/** The skills reactors' settings (see skillsFromEnv for the environment that sets each). */
export interface SkillsSetup {
  /** Cosine at or above which a memory updates an existing skill. Default SKILL_MATCH_THRESHOLD (0.55). */
  matchThreshold?: number;
  /** The model the matcher embeds with. Default: the vectors projection's (none when `ENGRAM_EMBEDDER=off`). */
  embedder?: Embedder;
  /** Install manifests naming user skills an installer manages. Default `~/.agents/.skill-lock.json` (from the environment). */
  userManifests?: readonly string[];
  curator?: CuratorOptions;
  /** The post-turn audit's LLM; none (the default) runs no audit. */
  audit?: AuditDeps;
}

const DAY_MS = 24 * 3600_000;
const positive = z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isFinite(n) && n > 0));
const unit = z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isFinite(n) && n >= -1 && n <= 1));

/**
 * The skills settings from the environment, each with its default when unset or '':
 * `ENGRAM_SKILL_MATCH_THRESHOLD` (0.55), `ENGRAM_CURATOR_EVERY_DAYS` (7),
 * `ENGRAM_CURATOR_STALE_DAYS` (30), `ENGRAM_CURATOR_ARCHIVE_DAYS` (90), `ENGRAM_CURATOR_ARCHIVE=1`
 * (off: the curator only reports), `ENGRAM_AUDIT=1` (off: no post-turn audit; on, it uses the
 * distiller's LLM, `ENGRAM_LLM_CMD` or `claude`). A value that does not parse is a USAGE error
 * naming it, never a silent default.
 */
export function skillsFromEnv(env: NodeJS.ProcessEnv, paths: EngramPaths): SkillsSetup {
  const llm = env.ENGRAM_AUDIT === '1' ? llmFromEnv(env, paths) : undefined;
  const every = number(env, 'ENGRAM_CURATOR_EVERY_DAYS', positive);
  const staleDays = number(env, 'ENGRAM_CURATOR_STALE_DAYS', positive);
  const archiveDays = number(env, 'ENGRAM_CURATOR_ARCHIVE_DAYS', positive);
  return {
    matchThreshold: number(env, 'ENGRAM_SKILL_MATCH_THRESHOLD', unit) ?? SKILL_MATCH_THRESHOLD,
    userManifests: [join(env.HOME || homedir(), '.agents', '.skill-lock.json')],
    curator: {
      archive: env.ENGRAM_CURATOR_ARCHIVE === '1',
      ...(every === undefined ? {} : { everyMs: every * DAY_MS }),
      ...(staleDays === undefined ? {} : { staleDays }),
      ...(archiveDays === undefined ? {} : { archiveDays }),
    },
    ...(llm
      ? {
        audit: {
          llm,
          parse: (stdout: string) => {
            const parsed = parseDistillAnswer(stdout);
            if (!parsed.ok) return parsed;
            return { ok: true as const, answer: parsed.answer, notes: parsed.notes.map((note) => `${note.code} at ${note.at}: ${note.detail}`.slice(0, 300)) };
          },
          redact: (text: string) => redactCapped(text, 64_000),
        },
      }
      : {}),
  };
}

function number(env: NodeJS.ProcessEnv, name: string, shape: z.ZodMiniType<number, string>): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const parsed = shape.safeParse(raw);
  if (!parsed.success) throw new EngramError('USAGE', `${name} is ${JSON.stringify(raw)}, which is not a number it accepts`, { cause: parsed.error });
  return parsed.data;
}
