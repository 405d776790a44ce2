import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../atomic-write.js';
import { contentHash } from '../../content-hash.js';
import { EngramError } from '../../errors.js';
import { RouteAccepted, RouteDeclined } from '../../events/distill-events.js';
import { fileNameFor } from '../../projections/memories/memory-row.js';
import { routeKey, type RouteRow } from '../../projections/memories/promotion-gate.js';
import type { Engine } from '../engine/engine.js';
import { defineCommand } from './command.js';

/** `engram routes [--project PATH] [--all] [--json]`: the proposals for CLAUDE.md and docs/knowledge/. */
export const routesList = defineCommand({
  name: 'routes.list',
  access: 'read',
  args: z.object({ project: z.string().optional(), all: z.boolean().default(false), json: z.boolean().default(false) }),
  async run(engine, args, output) {
    const routes = (await allRoutes(engine)).filter(
      (route) => (args.all || route.status === 'proposed') && (args.project === undefined || args.all || route.project === args.project),
    );
    if (args.json) {
      await output.out(`${JSON.stringify(routes, null, 2)}\n`);
      return 0;
    }
    if (routes.length === 0) {
      await output.out('no proposals waiting\n');
      return 0;
    }
    const lines = routes.map((route) => `${route.routeId}  ${route.status.padEnd(8)}  ${target(route).padEnd(9)}  ${route.project}\n    ${route.name}: ${route.description}`);
    await output.out(`${lines.join('\n')}\n\nengram routes accept ID | engram routes decline ID\n`);
    return 0;
  },
});

const answer = z.object({ routeId: z.string().min(1) });

/**
 * `engram routes accept ID`: appends the line to the session's project's CLAUDE.md (or writes
 * the knowledge file), then records that it did. Done twice (a crash between the two), the line
 * is found already there and not written again.
 */
export const routesAccept = defineCommand({
  name: 'routes.accept',
  access: 'write',
  args: answer,
  async run(engine, args, output) {
    const route = await openRoute(engine, args.routeId);
    const written = route.destination === 'claude_md' ? appendToClaudeMd(route) : writeKnowledge(route);
    await record(engine, route, RouteAccepted, { routeId: route.routeId, path: written.path, contentHash: written.hash });
    await output.out(`${route.routeId}: ${written.already ? 'already in' : 'written to'} ${written.path}\n`);
    return 0;
  },
});

export const routesDecline = defineCommand({
  name: 'routes.decline',
  access: 'write',
  args: answer,
  async run(engine, args, output) {
    const route = await openRoute(engine, args.routeId);
    await record(engine, route, RouteDeclined, { routeId: route.routeId });
    await output.out(`${route.routeId}: declined\n`);
    return 0;
  },
});

async function allRoutes(engine: Engine): Promise<RouteRow[]> {
  const routes: RouteRow[] = [];
  for await (const [, row] of engine.runner.rowsOf('memories').entries('route:')) routes.push(row as RouteRow);
  return routes.sort((a, b) => (a.proposedAt < b.proposedAt ? -1 : a.proposedAt > b.proposedAt ? 1 : a.routeId < b.routeId ? -1 : 1));
}

async function openRoute(engine: Engine, routeId: string): Promise<RouteRow> {
  const route = (await engine.runner.rowsOf('memories').get(routeKey(routeId))) as RouteRow | undefined;
  if (!route) throw new EngramError('USAGE', `no proposal ${routeId}; \`engram routes\` lists them`);
  if (route.status !== 'proposed') throw new EngramError('USAGE', `${routeId} was already ${route.status}${route.path ? ` (${route.path})` : ''}`);
  return route;
}

function target(route: RouteRow): string {
  return route.destination === 'claude_md' ? 'CLAUDE.md' : 'knowledge';
}

/** The instruction, as one line of the project's CLAUDE.md. */
function claudeMdLine(route: RouteRow): string {
  const text = (route.body.trim() || route.description.trim() || route.name).replace(/\s+/g, ' ');
  return `- ${text}`;
}

function appendToClaudeMd(route: RouteRow): { path: string; hash: string; already: boolean } {
  const path = join(route.project, 'CLAUDE.md');
  const line = claudeMdLine(route);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (before.split(/\r?\n/).includes(line)) return { path, hash: contentHash(before), already: true };
  const after = `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${line}\n`;
  writeFileAtomic(path, after);
  return { path, hash: contentHash(after), already: false };
}

function writeKnowledge(route: RouteRow): { path: string; hash: string; already: boolean } {
  const dir = join(route.project, 'docs', 'knowledge');
  const content = `# ${route.name}\n\n${route.description}\n\n${route.body.trim()}\n`;
  const taken = new Set<string>();
  for (;;) {
    const path = join(dir, fileNameFor(route.name, undefined, taken));
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, content);
      return { path, hash: contentHash(content), already: false };
    }
    if (readFileSync(path, 'utf8') === content) return { path, hash: contentHash(content), already: true };
    taken.add(path.slice(dir.length + 1).toLowerCase());
  }
}

async function record(engine: Engine, route: RouteRow, definition: typeof RouteAccepted | typeof RouteDeclined, data: unknown): Promise<void> {
  await engine.record([
    {
      id: `${definition.type === 'RouteAccepted' ? 'route-accepted' : 'route-declined'}:${route.routeId}`,
      type: definition.type,
      schemaVersion: definition.schemaVersion,
      ts: engine.clock.now().toISOString(),
      session: route.session,
      project: route.project,
      data,
    },
  ]);
}
