import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EngramError } from '../errors.js';
import type { CliCommand } from './cli-context.js';
import { runEngineCommand } from './run-engine-command.js';

/**
 * The commands that run in the engine: asked of the running worker, or run in this process when
 * none answers (run-engine-command.ts). The few that must hold the log alone (a whole rebuild,
 * log repair, migrate) load their modules when run.
 */
export const engineCli: CliCommand = async (command, rest, { paths, clock, terminal, ctx }) => {
  switch (command) {
    case 'log': {
      const [sub, ...flags] = rest;
      if (sub === 'dump') return runEngineCommand('log.dump', {}, ctx);
      if (sub === 'stats') {
        const { values } = parseArgs({ args: flags, options: { json: { type: 'boolean', default: false } } });
        return runEngineCommand('log.stats', { json: values.json }, ctx);
      }
      if (sub === 'verify') {
        const { values } = parseArgs({ args: flags, options: { json: { type: 'boolean', default: false } } });
        return runEngineCommand('log.verify', { json: values.json }, ctx);
      }
      if (sub === 'repair') return (await import('./repair-log.js')).repairLog({ paths, clock, terminal });
      throw new EngramError('USAGE', 'engram log dump | engram log stats [--json] | engram log verify [--json] | engram log repair');
    }
    case 'rebuild': {
      const { values } = parseArgs({ args: rest, options: { only: { type: 'string', multiple: true } } });
      // Every projection: aside, then swapped in. One or a few: in place, by the engine.
      if ((values.only ?? []).length === 0) return (await import('./rebuild-aside.js')).rebuildAside(ctx);
      return runEngineCommand('rebuild', { only: values.only ?? [] }, ctx);
    }
    case 'replay': {
      const { values } = parseArgs({ args: rest, options: { until: { type: 'string' }, out: { type: 'string' } } });
      if (!values.until || !values.out) throw new EngramError('USAGE', 'engram replay --until SEQ|ISO --out DIR');
      // Relative to where the user is, not to wherever a running worker was started.
      return runEngineCommand('replay', { until: values.until, out: resolve(values.out) }, ctx);
    }
    case 'migrate': {
      const { values } = parseArgs({
        args: rest,
        options: { 'dry-run': { type: 'boolean', default: false }, 'discard-old': { type: 'boolean', default: false } },
      });
      return (await import('./migrate.js')).migrate({ paths, clock, dryRun: values['dry-run'], discardOld: values['discard-old'], terminal });
    }
    case 'import': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { project: { type: 'string' }, global: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 1 || (values.global && values.project !== undefined)) {
        throw new EngramError('USAGE', 'engram import DIR [--project PATH | --global]');
      }
      // Paths are the user's, relative to where they are, not to where a running worker started.
      const target = values.global ? { global: true } : { project: resolve(values.project ?? process.cwd()) };
      return runEngineCommand('import', { dir: resolve(positionals[0]!), ...target }, ctx);
    }
    case 'reconcile': {
      const { values } = parseArgs({ args: rest, options: { project: { type: 'string' } } });
      return runEngineCommand('reconcile', values.project === undefined ? {} : { project: resolve(values.project) }, ctx);
    }
    case 'maintain': {
      const { values } = parseArgs({
        args: rest,
        options: { now: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, network: { type: 'boolean', default: false } },
      });
      return runEngineCommand('maintain', { now: values.now, dryRun: values['dry-run'], network: values.network }, ctx);
    }
    case 'backfill': {
      const { values } = parseArgs({
        args: rest,
        options: { since: { type: 'string' }, project: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, 'no-distill': { type: 'boolean', default: false } },
      });
      if (values.since !== undefined && Number.isNaN(new Date(values.since).getTime())) {
        throw new EngramError('USAGE', `--since takes a date or an ISO time, not ${JSON.stringify(values.since)}`);
      }
      return runEngineCommand('backfill', {
        since: values.since,
        project: values.project === undefined ? undefined : resolve(values.project),
        dryRun: values['dry-run'],
        distill: !values['no-distill'],
      }, ctx);
    }
    case 'distill': {
      const { values } = parseArgs({ args: rest, options: { session: { type: 'string' } } });
      if (!values.session) throw new EngramError('USAGE', 'engram distill --session ID');
      return runEngineCommand('distill', { session: values.session }, ctx);
    }
    case 'graph': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { project: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } },
      });
      if (positionals[0] !== 'backfill') {
        // Anything else is an entity's name, in one word or several (`engram graph connection pool`).
        if (positionals.length === 0) throw new EngramError('USAGE', 'engram graph ENTITY [--project PATH] [--json] | engram graph backfill [--project PATH] [--limit N]');
        return runEngineCommand('graph.show', { entity: positionals.join(' '), project: resolve(values.project ?? process.cwd()), json: values.json }, ctx);
      }
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new EngramError('USAGE', '--limit takes a positive whole number');
      return runEngineCommand('graph.backfill', { project: values.project === undefined ? undefined : resolve(values.project), limit }, ctx);
    }
    case 'routes': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { project: { type: 'string' }, all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
      });
      const [sub, routeId] = positionals;
      if (sub === undefined || sub === 'list') {
        return runEngineCommand('routes.list', { project: resolve(values.project ?? process.cwd()), all: values.all, json: values.json }, ctx);
      }
      if ((sub === 'accept' || sub === 'decline') && routeId) return runEngineCommand(`routes.${sub}`, { routeId }, ctx);
      throw new EngramError('USAGE', 'engram routes [--project PATH] [--all] [--json] | engram routes accept|decline ID');
    }
    default:
      throw new EngramError('USAGE', `unknown command ${JSON.stringify(command)}; see \`engram help\``);
  }
};
