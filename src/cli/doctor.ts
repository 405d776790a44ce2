import { readSyncStatus } from '../sync/sync-status.js';
import { syncFolder } from '../sync/sync-settings.js';
import { describeSyncStatus } from './sync-cli.js';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { Clock } from '../clock.js';
import { describeError, describeForUser, isEngramError } from '../errors.js';
import { describeDamage, isWhole } from '../log/log-check.js';
import { readConfigFile } from '../config/config-file.js';
import type { SettingsReport } from '../config/effective-settings.js';
import { settingsReport } from '../config/settings-report.js';
import { settingByKey } from '../config/setting-table.js';
import type { EngramPaths } from '../paths.js';
import type { DoctorFacts } from '../commands/doctor-facts.js';
import { pingWorker } from '../socket/worker-client.js';
import { describeVersion } from '../version.js';
import { describeLostWrites } from '../projections/describe-lost-writes.js';
import { activeEngramPlugins, findDoubleRecording } from './double-recording.js';
import { pluginRuntimes } from './plugin-runtimes.js';
import { isInstalled } from './install.js';
import { runEngineCommand } from './run-engine-command.js';

export interface DoctorFinding {
  ok: boolean;
  text: string;
  /** Worth knowing, neither right nor wrong (a feature that is off): shown with `-`, never fails doctor. */
  info?: boolean;
}

/** `engram doctor`: what is wrong, in plain words, and what to do about it. */
export async function doctor(ctx: { paths: EngramPaths; clock: Clock; settingsPath: string; env?: NodeJS.ProcessEnv; configProblem?: unknown }): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const say = (ok: boolean, text: string) => findings.push({ ok, text });

  say(true, describeVersion());
  const pong = await pingWorker(ctx.paths);
  const broken = readBrokenMarker(ctx.paths);
  if (broken) say(false, broken);
  if (pong) say(true, `the worker is running (pid ${pong.pid}, build ${pong.build ?? 'from before build ids'}, since ${pong.startedAt}, log head ${pong.head})`);
  else if (broken) say(false, 'no worker is running, and none will take hook events in until the log is repaired (`engram log repair`)');
  else say(true, 'no worker is running; the next hook starts one (or run `engram worker --detach`)');

  let facts: DoctorFacts | undefined;
  try {
    let json = '';
    const capture = new Writable({ write: (chunk, _enc, done) => ((json += chunk.toString()), done()) });
    // With no worker running, doctor reads the log whole itself: a worker checks it at start.
    await runEngineCommand('doctor.facts', { verify: !pong }, { paths: ctx.paths, clock: ctx.clock, env: ctx.env, terminal: { stdout: capture, stderr: process.stderr } });
    facts = JSON.parse(json) as DoctorFacts;
  } catch (err) {
    if (isEngramError(err, 'STATE_CORRUPT')) say(false, err.message);
    else if (isEngramError(err, 'LOG_CORRUPT')) {
      say(false, `the log at ${ctx.paths.log} does not open (${describeError(err)}): run \`engram log repair\` to keep every readable event in a new log (the old one is kept)`);
    } else say(false, `the log at ${ctx.paths.log} could not be read: ${describeError(err)}`);
  }
  if (facts?.stateDamage !== undefined) {
    say(false, `the projection state at ${ctx.paths.state} cannot be read whole (${facts.stateDamage}): run \`engram rebuild\`, which builds it whole aside from the log and swaps it in`);
  }
  if (facts?.logCheck && !isWhole(facts.logCheck)) {
    say(false, `${describeDamage(facts.logCheck)}: run \`engram log repair\` to keep every readable event in a new log (the old one is kept); \`engram log verify\` says where`);
  }

  if (facts) {
    const { spool } = facts;
    if (facts.freeBytes !== null && facts.freeBytes < LOW_FREE_BYTES) {
      say(false, `the disk holding ${ctx.paths.home} has only ${Math.round(facts.freeBytes / 1024)} KB free: hooks cannot write their events once it is full (each such event is lost and counted); free some space`);
    }
    if (facts.lostPending > 0) {
      say(false, `${facts.lostPending} hook events could not be written to the spool (see ${ctx.paths.spoolLost}) and are lost; the worker records how many, when and why as soon as it runs`);
    }
    if (facts.lost) {
      const recent = ctx.clock.now().getTime() - Date.parse(facts.lost.lastAt) < RECENT_LOSS_MS;
      say(!recent, `${describeLostWrites(facts.lost)} (recorded as HookWritesFailed; \`engram log dump\` lists them)`);
    }
    if (spool.pending === 0 && spool.inFlight > 0) {
      say(!!pong, `${spool.inFlight} hook event files sit in ${ctx.paths.spoolTmp}: hooks writing them now, or hooks that could not finish${pong ? '; the worker takes whole ones and rejects torn ones' : '; run `engram worker --drain`'}`);
    } else if (spool.pending === 0) say(true, `the spool is empty; the log holds ${facts.head} events`);
    else if (!pong || (facts.oldestPendingSeconds ?? 0) > 60) {
      say(false, `${spool.pending} hook events wait in the spool (oldest ${facts.oldestPendingSeconds ?? '?'} s)${pong ? ' and the worker is not taking them: see ' + ctx.paths.workerLog : '; run `engram worker --drain` to ingest them'}`);
    } else say(true, `${spool.pending} hook events are being ingested`);
    if (spool.newer > 0) say(true, `${spool.newer} spool files wait for a newer engram (an event type or schemaVersion this one does not read); a newer worker ingests them`);
    if (spool.rejected > 0) {
      say(false, `${spool.rejected} spool files were rejected and kept in ${ctx.paths.spoolRejected}; latest reasons:\n${facts.rejectedFiles.map((f) => `      ${f.name}: ${f.reason}`).join('\n')}`);
    }
    if (facts.rejectedInputs.count > 0) {
      say(false, `${facts.rejectedInputs.count} hook inputs could not be read (recorded as HookInputRejected); latest:\n${facts.rejectedInputs.latest.map((r) => `      #${r.seq} ${r.ts} ${r.hook}: ${r.reason}`).join('\n')}`);
    }
    for (const projector of facts.projectors) {
      if (projector.fault) {
        say(false, `projection ${projector.name} stopped at event ${projector.fault.seq} (${projector.fault.eventType}): ${projector.fault.message}. The others go on; once fixed, \`engram rebuild --only ${projector.name}\` replays it`);
      } else if (projector.resetPending) {
        say(!pong ? false : true, `projection ${projector.name} must be rebuilt from the log because ${projector.resetPending}${pong ? '; the worker is doing it' : '; run `engram worker --drain`'}`);
      } else if (projector.failing) {
        say(false, `projection ${projector.name} has not advanced since ${projector.failing.since}: ${projector.failing.message}. It retries by itself; see ${ctx.paths.workerLog}`);
      } else if (projector.seq < facts.head) {
        say(!pong ? false : true, `projection ${projector.name} is at event ${projector.seq} of ${facts.head}${pong ? ' (catching up)' : '; run `engram worker --drain`'}`);
      }
      if (projector.lastReset) say(true, `projection ${projector.name} was rebuilt from the log at ${projector.lastReset.at} because ${projector.lastReset.reason}`);
      if (projector.failedRows.length > 0) {
        const first = projector.failedRows[0]!;
        say(false, `projection ${projector.name} could not write the files of ${projector.failedRows.length} row(s), retried by itself; the first (${first.key}, since ${first.at}): ${first.message}`);
      }
    }
    const healthy = facts.projectors.every((p) => !p.fault && !p.resetPending && !p.failing && p.failedRows.length === 0 && p.seq >= facts!.head);
    if (healthy && facts.stateDamage === undefined) say(true, `all ${facts.projectors.length} projections are up to date`);
    for (const { projector, missing, edited, foreign } of facts.outputs) {
      if (missing.length > 0) {
        say(false, `${missing.length} file(s) that projection ${projector} wrote are gone (e.g. ${missing[0]}); \`engram rebuild --only ${projector}\` writes them again`);
      }
      for (const path of edited) say(false, `${path} was changed by someone since engram wrote it, so engram leaves it alone`);
      for (const path of foreign) say(false, `${path} was not written by engram, so engram leaves it alone; rename it to let engram write its own`);
    }
    for (const failed of facts.distill?.failed ?? []) {
      say(false, `distilling session ${failed.session} (${failed.project}) failed twice, last at ${failed.at} (${failed.reason}); \`engram distill --session ${failed.session}\` tries again`);
    }
  }

  const installed = await isInstalled(ctx.settingsPath).catch(() => false);
  const plugins = await activeEngramPlugins({ claudeDir: ctx.paths.claude });
  for (const finding of pluginRuntimes(ctx.paths, ctx.env ?? process.env, plugins)) say(finding.ok, finding.text);
  if (installed === false && plugins.length > 0) say(true, `engram's plugin is enabled in Claude Code (${plugins.join(', ')})`);
  else if (installed === true) say(true, `hooks are installed in ${ctx.settingsPath}`);
  else if (installed === 'partial') say(false, `only some of engram's hooks are in ${ctx.settingsPath}; run \`engram install\``);
  else say(false, `engram's hooks are not in ${ctx.settingsPath}; run \`engram install\` (or install the plugin)`);
  const doubleRecording = await findDoubleRecording({ claudeDir: ctx.paths.claude, settingsPath: ctx.settingsPath });
  if (doubleRecording) say(false, doubleRecording);

  const env = ctx.env ?? process.env;
  // The settings that count are the worker's (it distils, embeds, curates), not this shell's.
  const running = facts?.settings ?? settingsReport('cli', env);
  const who = running.process === 'worker' ? `the worker (pid ${running.pid})` : 'this process (no worker runs; one started now reads the same)';
  if (ctx.configProblem !== undefined) say(false, `${describeForUser(ctx.configProblem)}; until it is fixed engram uses the environment and the defaults`);
  findings.push({
    ok: true,
    info: true,
    text: `settings of ${who}, from the environment, ${ctx.paths.config} or the default:\n${running.settings.map((s) => `      ${s.key} = ${s.value === '' ? '(none)' : s.value}  (${s.source === 'env' ? `env ${s.env}` : s.source === 'file' ? 'config.json' : 'default'})`).join('\n')}`,
  });
  if (running.process === 'worker' && ctx.configProblem === undefined) {
    let file: ReturnType<typeof readConfigFile> = {};
    try {
      file = readConfigFile(ctx.paths);
    } catch {
      // said above
    }
    for (const s of running.settings) {
      const spec = settingByKey(s.key);
      if (!spec || s.source === 'env') continue;
      const now = file[s.key] === undefined ? spec.default : spec.toEnv(file[s.key]!);
      if (now !== s.value) say(false, `the worker runs with ${s.key} = ${s.value || '(none)'} but config.json now says ${now || '(none)'}: it restarts itself when it notices (within seconds); \`engram worker stop\` makes the next hook start one that reads it`);
    }
  }
  findings.push(...llmFinding(running));
  const syncScope = running.settings.find((s) => s.key === 'syncScope')?.value ?? 'off';
  if (syncScope !== 'off') {
    const sync = readSyncStatus(syncFolder(ctx.paths));
    if (!sync) say(false, `sync (${syncScope}) is on but no worker has reported on it yet; \`engram sync status\` shows it once one runs`);
    else say(sync.connected && !sync.missed && sync.rejected === 0, `sync (${syncScope}), as of ${sync.updatedAt}:\n${describeSyncStatus(sync).trimEnd().split('\n').map((line) => `      ${line}`).join('\n')}`);
  }

  const recent = recentHookErrors(ctx.paths, ctx.clock.now());
  if (recent.count > 0) say(false, `${recent.count} hook errors in the last 24 h in ${ctx.paths.hooksLog}; latest: ${recent.latest}`);
  return findings;
}

/** Below this, doctor warns that the disk is nearly full. */
const LOW_FREE_BYTES = 16 * 1024 * 1024;
/** A loss this recent is a fault doctor reports; an older one is said, but passes. */
const RECENT_LOSS_MS = 7 * 24 * 3600_000;

function llmFinding(running: SettingsReport): DoctorFinding[] {
  const value = (key: string) => running.settings.find((s) => s.key === key);
  const distiller = value('distiller');
  const whose = running.process === 'worker' ? "the worker's" : 'this';
  if (distiller?.value === 'off') {
    return [{ ok: true, info: true, text: `the distiller is off (distiller = off, from ${distiller.source === 'env' ? `env ${distiller.env}` : distiller.source === 'file' ? 'config.json' : 'the default'}): sessions are not distilled into memories` }];
  }
  if (running.llm === 'none') {
    return [{
      ok: true,
      info: true,
      text: `distillation by an LLM is off: no \`claude\` on ${whose} PATH and no llmCommand, so each session's episode comes from its trace alone; install Claude Code or \`engram config set llmCommand "COMMAND"\` (a command that reads the prompt on stdin and prints what \`claude -p --output-format json\` prints) to turn it on`,
    }];
  }
  const cmd = value('llmCommand');
  return [{ ok: true, text: `sessions are distilled by ${running.llm === 'llmCommand' ? `llmCommand (from ${cmd?.source === 'env' ? `env ${cmd.env}` : 'config.json'})` : '`claude -p --model haiku`'}` }];
}

export function renderFindings(findings: DoctorFinding[]): string {
  return `${findings.map((f) => `${f.info ? '-' : f.ok ? '✓' : '✗'} ${f.text}`).join('\n')}\n`;
}

/** What the worker left in paths.logBroken (why the log is broken, what to run), if anything. */
function readBrokenMarker(paths: EngramPaths): string | undefined {
  try {
    const text = readFileSync(paths.logBroken, 'utf8').trim();
    return text === '' ? 'the log was found broken; run `engram log verify`' : text;
  } catch {
    return undefined;
  }
}

function recentHookErrors(paths: EngramPaths, now: Date): { count: number; latest: string } {
  let lines: string[];
  try {
    lines = readFileSync(paths.hooksLog, 'utf8').trimEnd().split('\n');
  } catch {
    return { count: 0, latest: '' };
  }
  const since = now.getTime() - 24 * 3600_000;
  const recent = lines.filter((line) => Date.parse(line.slice(0, 24)) >= since);
  return { count: recent.length, latest: recent.at(-1) ?? '' };
}
