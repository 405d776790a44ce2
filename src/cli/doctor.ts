import { llmAvailable } from '../distill/llm-available.js';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { Clock } from '../clock.js';
import { describeError } from '../errors.js';
import type { EngramPaths } from '../paths.js';
import type { DoctorFacts } from '../workers/commands/doctor-facts.js';
import { pingWorker } from '../workers/socket/worker-client.js';
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
export async function doctor(ctx: { paths: EngramPaths; clock: Clock; settingsPath: string; env?: NodeJS.ProcessEnv }): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const say = (ok: boolean, text: string) => findings.push({ ok, text });

  say(true, describeVersion());
  const pong = await pingWorker(ctx.paths);
  if (pong) say(true, `the worker is running (pid ${pong.pid}, build ${pong.build ?? 'from before build ids'}, since ${pong.startedAt}, log head ${pong.head})`);
  else say(true, 'no worker is running; the next hook starts one (or run `engram worker --detach`)');

  let facts: DoctorFacts | undefined;
  try {
    let json = '';
    const capture = new Writable({ write: (chunk, _enc, done) => ((json += chunk.toString()), done()) });
    await runEngineCommand('doctor.facts', {}, { paths: ctx.paths, clock: ctx.clock, terminal: { stdout: capture, stderr: process.stderr } });
    facts = JSON.parse(json) as DoctorFacts;
  } catch (err) {
    say(false, `the log at ${ctx.paths.log} could not be read: ${describeError(err)}`);
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
      say(!recent, `${describeLostWrites(facts.lost)} (recorded as HookWritesLost; \`engram log dump\` lists them)`);
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
    if (healthy) say(true, `all ${facts.projectors.length} projections are up to date`);
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
  if (env.ENGRAM_DISTILLER === 'off') findings.push({ ok: true, info: true, text: 'the distiller is off (ENGRAM_DISTILLER=off): sessions are not distilled into memories' });
  else if (!llmAvailable(env)) {
    findings.push({
      ok: true,
      info: true,
      text: 'distillation by an LLM is off: no `claude` on PATH and no ENGRAM_LLM_CMD, so each session\'s episode comes from its trace alone; install Claude Code or set ENGRAM_LLM_CMD (a command that reads the prompt on stdin and prints what `claude -p --output-format json` prints) to turn it on',
    });
  } else say(true, `sessions are distilled by ${env.ENGRAM_LLM_CMD ? 'ENGRAM_LLM_CMD' : '`claude -p --model haiku`'}`);

  const recent = recentHookErrors(ctx.paths, ctx.clock.now());
  if (recent.count > 0) say(false, `${recent.count} hook errors in the last 24 h in ${ctx.paths.hooksLog}; latest: ${recent.latest}`);
  return findings;
}

/** Below this, doctor warns that the disk is nearly full. */
const LOW_FREE_BYTES = 16 * 1024 * 1024;
/** A loss this recent is a fault doctor reports; an older one is said, but passes. */
const RECENT_LOSS_MS = 7 * 24 * 3600_000;

export function renderFindings(findings: DoctorFinding[]): string {
  return `${findings.map((f) => `${f.info ? '-' : f.ok ? '✓' : '✗'} ${f.text}`).join('\n')}\n`;
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
