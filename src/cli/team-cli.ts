import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfigFile, writeConfigFile } from '../config/config-file.js';
import { resolveSettings } from '../config/effective-settings.js';
import { settingByKey } from '../config/setting-table.js';
import { EngramError } from '../errors.js';
import { liveWorker } from '../launch/live-worker.js';
import { teamProject } from '../sync/project-identity.js';
import { teamProjectDirs } from '../sync/sync-settings.js';
import { teamSubject } from '../sync/sync-subject.js';
import type { EngineCommandContext } from './run-engine-command.js';

export const TEAM_USAGE = 'engram team join URL [--project DIR] | engram team leave [--project DIR]   (DIR: default the current directory)';

/**
 * `engram team join URL`: this project's memories (and nothing else) are shared with the team
 * through the NATS server at URL, and the team's come in as provisional memories. It writes the
 * settings (`syncScope team`, `syncUrl`, `syncTeamProjects`) to config.json, which the worker
 * notices and restarts for. `engram team leave` takes the project out again. `ctx.env` is the
 * user's environment as given, not yet filled from the file.
 */
export async function teamCli(args: string[], ctx: EngineCommandContext): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { project: { type: 'string' } } });
  const [sub, url, ...rest] = positionals;
  const { paths, terminal } = ctx;
  const env = ctx.env ?? process.env;
  const dir = resolve(values.project ?? process.cwd());
  const file = readConfigFile(paths);
  const effective = (key: string) => resolveSettings(env, file).find((s) => s.key === key)!.value;
  const dirs = teamProjectDirs(String(effective('syncTeamProjects')));
  if (sub === 'join' && url !== undefined && rest.length === 0) {
    const project = teamProject(dir);
    if (effective('syncScope') === 'personal') {
      throw new EngramError('USAGE', 'this machine syncs in the personal scope; the personal and team scopes at once are not built yet (docs/team-sync.md): `engram config set syncScope off` first, or keep the team on another machine');
    }
    const urlShape = settingByKey('syncUrl')!.shape.safeParse(url);
    if (!urlShape.success) throw new EngramError('USAGE', 'the URL carries credentials: put them in a file and name it with `engram config set syncCredentials FILE`');
    file.syncScope = 'team';
    file.syncUrl = url;
    file.syncTeamProjects = [...new Set([...dirs, dir])].join(':');
    writeConfigFile(paths, file);
    terminal.stdout.write(
      `${dir} shares its memories with the team as ${project.id} (subject ${teamSubject(project)} on ${url}).\n` +
        'What leaves this machine: the memories of this project, as their files say them (name, description, body, active or archived), and your syncUser; never a prompt, a tool call, a transcript or a path.\n' +
        "Teammates' memories arrive provisional, marked `shared_by`. To stop: engram team leave\n",
    );
  } else if (sub === 'leave' && url === undefined) {
    if (!dirs.includes(dir)) {
      terminal.stdout.write(`${dir} is not shared with a team; nothing to do\n`);
      return 0;
    }
    const left = dirs.filter((other) => other !== dir);
    if (left.length > 0) file.syncTeamProjects = left.join(':');
    else {
      delete file.syncTeamProjects;
      if (file.syncScope === 'team') delete file.syncScope;
    }
    writeConfigFile(paths, file);
    terminal.stdout.write(`${dir} no longer shares its memories; what the stream already holds stays there${left.length === 0 ? ' (sync is off)' : ''}\n`);
  } else throw new EngramError('USAGE', TEAM_USAGE);
  const worker = await liveWorker(paths);
  if (worker) terminal.stdout.write(`the worker (pid ${worker.pid}) sees the change and restarts itself to apply it\n`);
  return 0;
}
