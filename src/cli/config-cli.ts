import { parseArgs } from 'node:util';
import { readConfigFile, writeConfigFile } from '../config/config-file.js';
import { resolveSettings } from '../config/effective-settings.js';
import { settingByKey, SETTINGS } from '../config/setting-table.js';
import { describeIssues } from '../events/describe-issues.js';
import { EngramError } from '../errors.js';
import { liveWorker } from '../launch/live-worker.js';
import type { EngineCommandContext } from './run-engine-command.js';
import { CONFIG_USAGE } from './usage.js';

/**
 * `engram config …`: the settings in `ENGRAM_HOME/config.json` (src/config/setting-table.ts).
 * `ctx.env` is the user's environment as given, not yet filled from the file.
 */
export async function configCli(args: string[], ctx: EngineCommandContext): Promise<number> {
  // A value may start with '-' (`set recallWaitMs -1` is refused by its shape, not mistaken for a flag).
  const { values, positionals } = args[0] === 'set' ? { values: { json: false }, positionals: args } : parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  const [sub, key, ...rest] = positionals;
  const { paths, terminal } = ctx;
  const env = ctx.env ?? process.env;
  const known = (name: string | undefined) => {
    const spec = name === undefined ? undefined : settingByKey(name);
    if (!spec) throw new EngramError('USAGE', `${name === undefined ? 'a setting' : `${JSON.stringify(name)} is not a setting`}; the settings are ${SETTINGS.map((s) => s.key).join(', ')}\n${CONFIG_USAGE}`);
    return spec;
  };
  switch (sub) {
    case 'list':
    case undefined: {
      if (key !== undefined) throw new EngramError('USAGE', CONFIG_USAGE);
      const effective = resolveSettings(env, readConfigFile(paths));
      if (values.json) {
        terminal.stdout.write(`${JSON.stringify({ file: paths.config, settings: effective })}\n`);
        return 0;
      }
      const rows = effective.map((s) => [s.key, s.value === '' ? '(none)' : s.value, s.source === 'env' ? `env ${s.env}` : s.source === 'file' ? 'config.json' : 'default', s.env]);
      terminal.stdout.write(table(['SETTING', 'VALUE', 'FROM', 'ENVIRONMENT VARIABLE'], rows));
      terminal.stdout.write(`\nconfig.json: ${paths.config}; an environment variable overrides the file. See docs/configuration.md.\n`);
      return 0;
    }
    case 'get': {
      const spec = known(key);
      if (rest.length > 0) throw new EngramError('USAGE', CONFIG_USAGE);
      const found = resolveSettings(env, readConfigFile(paths)).find((s) => s.key === spec.key)!;
      terminal.stdout.write(`${found.value}\n`);
      if (found.source === 'env') terminal.stderr.write(`(from ${spec.env} in the environment, over config.json)\n`);
      return 0;
    }
    case 'set':
    case 'unset': {
      const spec = known(key);
      if (sub === 'set' ? rest.length !== 1 : rest.length !== 0) throw new EngramError('USAGE', CONFIG_USAGE);
      const file = readConfigFile(paths);
      if (sub === 'set') {
        const value = spec.fromText(rest[0]!);
        const parsed = spec.shape.safeParse(value);
        if (!parsed.success) throw new EngramError('USAGE', `${spec.key} cannot be ${JSON.stringify(rest[0])}: ${describeIssues(parsed.error).replace(/^\(root\): /, '')} (${spec.doc})`);
        file[spec.key] = parsed.data;
      } else delete file[spec.key];
      writeConfigFile(paths, file);
      const now = resolveSettings(env, file).find((s) => s.key === spec.key)!;
      terminal.stdout.write(`${spec.key} = ${now.value === '' ? '(none)' : now.value} in ${paths.config}\n`);
      if (now.source === 'env') terminal.stderr.write(`note: ${spec.env} is set in this environment and overrides the file here\n`);
      const worker = spec.readBy === 'worker' ? await liveWorker(paths) : undefined;
      if (worker) terminal.stdout.write(`the worker (pid ${worker.pid}) sees the change and restarts itself to apply it\n`);
      return 0;
    }
    default:
      throw new EngramError('USAGE', CONFIG_USAGE);
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
