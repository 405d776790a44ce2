import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';
import { contentHash } from '../content-hash.js';
import { EngramError } from '../errors.js';
import { RouteAccepted, RouteDeclined } from '../events/distill-events.js';
import { fileNameFor } from '../projections/memories/memory-row.js';
import { routeKey, type RouteRow } from '../projections/memories/promotion-gate.js';
import type { Engine } from '../engine/engine.js';
import { defineCommand } from './command.js';
import { committedRow, rowsOfKind } from '../projections/memories/memories-rows.js';

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
      // `text` is what accepting writes, and `acceptId` the id that accepts exactly that text.
      const shown = routes.map((route) => ({ ...route, text: routeText(route), acceptId: acceptId(route) }));
      await output.out(`${JSON.stringify(shown, null, 2)}\n`);
      return 0;
    }
    if (routes.length === 0) {
      await output.out('no proposals waiting\n');
      return 0;
    }
    // The text itself, not a summary of it: what the user accepts is what they read here.
    const lines = routes.map((route) => {
      const text = routeText(route);
      const what = route.destination === 'claude_md' ? `appends to ${join(route.project, 'CLAUDE.md')}:` : `writes a new file under ${join(route.project, 'docs', 'knowledge')}:`;
      return `${acceptId(route)}  ${route.status.padEnd(8)}  ${target(route).padEnd(9)}  ${route.project}\n    ${visible(route.name)}\n    ${what}\n${indent(text)}`;
    });
    await output.out(`${lines.join('\n\n')}\n\nengram routes accept ID | engram routes decline ID  (the ID names the exact text shown)\n`);
    return 0;
  },
});

const answer = z.object({ routeId: z.string().min(1) });

/**
 * `engram routes accept ID`: appends the line to the session's project's CLAUDE.md (or writes
 * the knowledge file), then records that it did. Done twice (a crash between the two), the line
 * is found already there and not written again. The ID is the one `engram routes` shows, which
 * ends in a hash of the text it showed: text the user was not shown (a bare route id, or text that
 * changed since) is refused, never written.
 */
export const routesAccept = defineCommand({
  name: 'routes.accept',
  access: 'write',
  args: answer,
  async run(engine, args, output) {
    const [routeId, shownHash] = args.routeId.split(':');
    const route = await openRoute(engine, routeId!);
    if (shownHash === undefined) {
      throw new EngramError('USAGE', `accept the ID \`engram routes\` shows (${acceptId(route)}): it names the exact text that will be written, so read it there first`);
    }
    if (shownHash !== textHash(route)) {
      throw new EngramError('USAGE', `the text of ${routeId} is not the text that ID was shown with; nothing written. \`engram routes\` shows it as it is now`);
    }
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
    const route = await openRoute(engine, args.routeId.split(':')[0]!);
    await record(engine, route, RouteDeclined, { routeId: route.routeId });
    await output.out(`${route.routeId}: declined\n`);
    return 0;
  },
});

async function allRoutes(engine: Engine): Promise<RouteRow[]> {
  const routes: RouteRow[] = [];
  const rows = engine.runner.rowsOf('memories');
  for await (const [, route] of rowsOfKind((prefix) => rows.entries(prefix), 'route')) routes.push(route);
  return routes.sort((a, b) => (a.proposedAt < b.proposedAt ? -1 : a.proposedAt > b.proposedAt ? 1 : a.routeId < b.routeId ? -1 : 1));
}

async function openRoute(engine: Engine, routeId: string): Promise<RouteRow> {
  const route = await committedRow(engine.runner.rowsOf('memories'), routeKey(routeId));
  if (!route) throw new EngramError('USAGE', `no proposal ${routeId}; \`engram routes\` lists them`);
  if (route.status !== 'proposed') throw new EngramError('USAGE', `${routeId} was already ${route.status}${route.path ? ` (${route.path})` : ''}`);
  return route;
}

function target(route: RouteRow): string {
  return route.destination === 'claude_md' ? 'CLAUDE.md' : 'knowledge';
}

/** What accepting `route` writes: its CLAUDE.md line, or the knowledge file's content. */
export function routeText(route: RouteRow): string {
  return route.destination === 'claude_md' ? claudeMdLine(route) : knowledgeContent(route);
}

/** The id that accepts `route` as its text is now: `<routeId>:<hash of the text>`. */
export function acceptId(route: RouteRow): string {
  return `${route.routeId}:${textHash(route)}`;
}

function textHash(route: RouteRow): string {
  return contentHash(routeText(route)).slice(0, 8);
}

function indent(text: string): string {
  return text.replace(/\n$/, '').split('\n').map((line) => `      ${line}`).join('\n');
}

// Control characters (an escape sequence could hide a line on the terminal that shows it) and
// bidirectional overrides (they reorder what is read) become U+FFFD in what is written, so the
// text shown and the text written are the same characters, all of them visible.
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function visible(text: string): string {
  return text.replace(HIDDEN, '\ufffd');
}

/** The instruction, as one line of the project's CLAUDE.md. */
function claudeMdLine(route: RouteRow): string {
  const text = visible(route.body.trim() || route.description.trim() || route.name).replace(/\s+/g, ' ');
  return `- ${text}`;
}

function knowledgeContent(route: RouteRow): string {
  return visible(`# ${route.name}\n\n${route.description}\n\n${route.body.trim()}\n`);
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
  const content = knowledgeContent(route);
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
