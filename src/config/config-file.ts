import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';
import { describeIssues } from '../events/describe-issues.js';
import { describeJsonError } from '../describe-json-error.js';
import { EngramError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import { SETTINGS } from './setting-table.js';

/** The settings `config.json` holds, each as its own type (a number, true/false, a word). */
export type ConfigValues = Partial<Record<string, string | number | boolean>>;

const fileShape = z.strictObject(Object.fromEntries(SETTINGS.map((s) => [s.key, s.shape.optional()])));

/**
 * `ENGRAM_HOME/config.json`, validated: {} when there is none. A file that is not JSON, or holds
 * a key engram does not know or a value of the wrong kind, is CONFIG_INVALID, saying which and
 * what to do; it is never half-read.
 */
export function readConfigFile(paths: Pick<EngramPaths, 'config'>): ConfigValues {
  let text: string;
  try {
    text = readFileSync(paths.config, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new EngramError('CONFIG_INVALID', `${paths.config} could not be read (${(err as Error).message})`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EngramError('CONFIG_INVALID', `${paths.config} is not JSON (${describeJsonError(err, text)}); fix it, or remove it to use the defaults`, { cause: err });
  }
  const parsed = fileShape.safeParse(json);
  if (!parsed.success) {
    // The file is the user's own and its keys are setting names: naming an unknown one helps,
    // while its value (which could be anything pasted there) is never quoted.
    const unknown = parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : [])).filter((key) => /^[A-Za-z][\w.-]{0,39}$/.test(key));
    const named = unknown.length > 0 ? ` (unknown: ${unknown.map((key) => `"${key}"`).join(', ')})` : '';
    throw new EngramError('CONFIG_INVALID', `${paths.config}: ${describeIssues(parsed.error)}${named}; \`engram config list\` shows every setting and its kind`, { cause: parsed.error });
  }
  return parsed.data as ConfigValues;
}

/** Writes the file whole (atomically), keys in the table's order. */
export function writeConfigFile(paths: Pick<EngramPaths, 'config'>, values: ConfigValues): void {
  const ordered = Object.fromEntries(SETTINGS.filter((s) => values[s.key] !== undefined).map((s) => [s.key, values[s.key]]));
  writeFileAtomic(paths.config, `${JSON.stringify(ordered, null, 2)}\n`);
}

/** The file's modification time in ms, or 0 when there is none: the worker's cue to look again. */
export function configFileStamp(paths: Pick<EngramPaths, 'config'>): number {
  try {
    return statSync(paths.config).mtimeMs;
  } catch {
    return 0;
  }
}
