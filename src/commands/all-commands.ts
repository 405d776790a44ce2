import type { EngineCommand } from './command.js';
import { doctorFacts } from './doctor-facts.js';
import { memoriesForget, memoriesList, memoriesPin, memoriesReinforce, memoriesRestore, memoriesShow, memoriesUnpin } from './memory-commands.js';
import { maintainCommand } from './maintain-command.js';
import { distillCommand } from './distill-command.js';
import { graphBackfill } from './graph-backfill-command.js';
import { graphShow } from './graph-show-command.js';
import { routesAccept, routesDecline, routesList } from './route-commands.js';
import { skillsAccept, skillsCurate, skillsCuratePlan, skillsDecline, skillsSuggest } from './skill-commands.js';
import { importCommand } from './import-command.js';
import { reconcileCommand } from './reconcile-command.js';
import { rememberCommand } from './remember-command.js';
import { timelineCommand } from './timeline-command.js';
import { migratePlan } from './migrate-plan.js';
import { logDump, logStats, logVerify } from './log-commands.js';
import { drain, rebuild, replay, status } from './projection-commands.js';
import { backfillCommand } from './backfill-command.js';

/** Every command that needs the log, by name. */
export function engineCommands(): Map<string, EngineCommand<unknown>> {
  const commands = [
    logDump, logStats, logVerify, drain, rebuild, replay, status, doctorFacts, migratePlan,
    memoriesList, memoriesShow, memoriesPin, memoriesUnpin, memoriesForget, memoriesRestore, maintainCommand,
    routesList, routesAccept, routesDecline, distillCommand, graphBackfill, graphShow, importCommand, reconcileCommand,
    skillsSuggest, skillsAccept, skillsDecline, skillsCuratePlan, skillsCurate, memoriesReinforce,
    rememberCommand, timelineCommand,
    backfillCommand,
  ] as EngineCommand<unknown>[];
  return new Map(commands.map((command) => [command.name, command]));
}
