import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BUILD_ID } from '../build-id.js';
import { EngramError } from '../errors.js';
import { MEMORY_BODY_CAP } from '../events/memory-events.js';
import { MEMORY_TYPES } from '../events/memory-kinds.js';
import { RECALL_TEXT_CHARS } from '../socket/socket-protocol.js';
import type { WorkerConnection } from './worker-connection.js';

export interface EngramMcpOptions {
  /** The project a call means when it names none: the directory Claude Code started the server in. */
  project: string;
}

/** Strings of an event's data shown to the agent are cut here: a step's gist, not the whole transcript. */
const EVENT_TEXT_CHARS = 600;

const projectArg = z
  .string()
  .max(4096)
  .optional()
  .describe('Project directory (absolute). Default: the directory you work in. "global" for memories that hold in every project.');

/**
 * engram's MCP server: tools the agent can call (search, get with provenance, remember, forget,
 * timeline) and the memory files as resources. Every call goes to the worker over its socket
 * through `connection`; bad arguments get an MCP error result with a clear message and the
 * server carries on.
 */
export function engramMcpServer(connection: WorkerConnection, options: EngramMcpOptions): McpServer {
  const server = new McpServer({ name: 'engram', version: BUILD_ID }, { capabilities: { tools: {}, resources: {} } });
  const project = (given: string | undefined): string => {
    if (given === undefined || given.trim() === '') return options.project;
    if (given === 'global') return '';
    return isAbsolute(given) ? resolve(given) : resolve(options.project, given);
  };

  server.registerTool(
    'search_memories',
    {
      title: 'Search memories',
      description:
        "Search engram's long-term memory of this user and project (lessons, preferences, facts, past sessions) with the same recall the prompt hook uses. Returns the best matches with type, status, strength, file, the signals that matched and the body.",
      inputSchema: {
        query: z.string().trim().min(1).max(RECALL_TEXT_CHARS).describe('What to look for, in plain words.'),
        project: projectArg,
        limit: z.number().int().min(1).max(20).optional().describe('At most this many results. Default 3.'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ query, project: given, limit }) => {
      const answers = await connection.ask({ op: 'search', text: query, project: project(given), ...(limit ? { limit } : {}) });
      const found = answers.find((a) => a.t === 'found');
      if (!found || found.t !== 'found') throw new EngramError('WORKER_PROTOCOL', errorText(answers) || 'the worker gave no search answer');
      const memories = found.hits.map((hit) => ({
        name: hit.name,
        type: hit.memory?.type,
        status: hit.memory?.status,
        strength: hit.memory?.strength,
        score: Math.round(hit.score * 10_000) / 10_000,
        signals: hit.signals,
        file: hit.memory?.file ?? hit.file,
        description: hit.description,
        body: hit.memory?.body,
      }));
      return json({ memories, ...(found.problems.length > 0 ? { leftOut: found.problems } : {}) });
    },
  );

  server.registerTool(
    'get_memory',
    {
      title: 'Get a memory and its provenance',
      description:
        'One memory by its name or file, with its provenance: every event that made or changed it (who proposed it, the prompt or distillation it came from, reinforcements, edits, archiving), oldest first.',
      inputSchema: {
        name: z.string().trim().min(1).max(1000).optional().describe("The memory's name (or its id)."),
        file: z.string().trim().min(1).max(4096).optional().describe("The memory's file name or path."),
        project: projectArg,
        history: z.number().int().min(1).max(500).optional().describe('At most this many of the latest events. Default 50.'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ name, file, project: given, history }) => {
      if ((name === undefined) === (file === undefined)) throw new EngramError('USAGE', 'give exactly one of name or file');
      const answers = await connection.ask({ op: 'provenance', query: name ?? (isAbsolute(file!) ? resolve(file!) : basename(file!)), project: project(given), limit: history ?? 50 });
      const found = answers.find((a) => a.t === 'provenance');
      if (!found || found.t !== 'provenance') throw new EngramError('USAGE', errorText(answers) || 'the worker gave no answer');
      const { memory, total, steps } = found.provenance;
      return json({
        memory,
        provenance: {
          events: total,
          ...(total > steps.length ? { shown: `the latest ${steps.length}` } : {}),
          steps: steps.map(({ event, ...step }) => ({ ...step, ...(event ? { data: capStrings(event.data, EVENT_TEXT_CHARS) } : {}) })),
        },
      });
    },
  );

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Record a memory the user asked you to keep (a preference, a rule, a fact about the project). It is active at once; set inferred when you concluded it yourself, and it waits until a later session confirms it. Saying what a memory already says reinforces that one.',
      inputSchema: {
        text: z.string().trim().min(1).max(MEMORY_BODY_CAP).describe('The memory, in one or a few plain sentences; the first line becomes its description.'),
        type: z.enum(MEMORY_TYPES).exclude(['unknown']).optional().describe('user: about the person; feedback: how to work; project: a fact about the project; reference: where to find something. Default: feedback.'),
        project: projectArg,
        inferred: z.boolean().optional().describe('True when the user did not ask for it: it stays provisional until corroborated.'),
      },
    },
    async ({ text, type, project: given, inferred }) => {
      const result = await connection.command('memories.remember', { text, project: project(given), ...(type ? { type } : {}), ...(inferred ? { inferred } : {}) });
      if (result.code !== 0) throw new EngramError(result.code === 2 ? 'USAGE' : 'WORKER_PROTOCOL', result.err.trim() || `remember failed (${result.code})`);
      return json(JSON.parse(result.out));
    },
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a memory',
      description: 'Archive a memory the user wants forgotten, with the reason. Nothing is deleted: it moves to _archive/ and can be restored.',
      inputSchema: {
        name: z.string().trim().min(1).max(1000).describe("The memory's name, file name or id."),
        reason: z.string().trim().min(1).max(500).describe('Why, in the user\'s words.'),
        project: projectArg,
      },
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    async ({ name, reason, project: given }) => {
      const result = await connection.command('memories.forget', { query: name, reason, project: project(given) });
      if (result.code !== 0) throw new EngramError(result.code === 2 ? 'USAGE' : 'WORKER_PROTOCOL', result.err.trim() || `forget failed (${result.code})`);
      return { content: [{ type: 'text', text: result.out.trim() }] };
    },
  );

  server.registerTool(
    'timeline',
    {
      title: 'Session timeline',
      description: "Past Claude Code sessions, the latest begun first, each with its one-line trace (prompts, tool calls, failures, compactions, whether it was distilled). `more` says whether older ones fit too.",
      inputSchema: {
        project: z.string().max(4096).optional().describe('Project directory (absolute). Default: the directory you work in. "all" for every project.'),
        since: z.string().max(40).optional().describe('Sessions begun since this date (YYYY-MM-DD) or ISO time.'),
        until: z.string().max(40).optional().describe('Sessions begun until this date (YYYY-MM-DD) or ISO time.'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many sessions. Default 20.'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ project: given, since, until, limit }) => {
      const args = { ...(given === 'all' ? {} : { project: project(given) }), ...(since ? { since } : {}), ...(until ? { until } : {}), ...(limit ? { limit } : {}) };
      const result = await connection.command('timeline', args);
      if (result.code !== 0) throw new EngramError(result.code === 2 ? 'USAGE' : 'WORKER_PROTOCOL', result.err.trim() || `timeline failed (${result.code})`);
      return json(JSON.parse(result.out));
    },
  );

  server.registerResource(
    'memory',
    new ResourceTemplate('file://{+path}', {
      list: async () => ({
        resources: (await listMemories(connection, { project: options.project, all: false })).map((memory) => ({
          uri: pathToFileURL(memory.file).href,
          name: memory.name,
          description: `${memory.type}, ${memory.status}, strength ${memory.strength}`,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: 'engram memory file', description: 'A memory file in Claude Code\'s format: frontmatter and body.', mimeType: 'text/markdown' },
    async (uri) => {
      const path = fileURLToPath(uri);
      // Only engram's own memory files: this must never become a way to read any file.
      const known = await listMemories(connection, { all: true });
      if (!known.some((memory) => memory.file === path)) throw new EngramError('USAGE', `${uri.href} is not one of engram's memory files`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await readFile(path, 'utf8') }] };
    },
  );

  return server;
}

const listed = z.array(z.object({ name: z.string(), type: z.string(), status: z.string(), strength: z.number(), file: z.string() }));

async function listMemories(connection: WorkerConnection, args: { project?: string; all: boolean }) {
  const result = await connection.command('memories.list', { ...args, json: true });
  if (result.code !== 0) throw new EngramError('WORKER_PROTOCOL', result.err.trim() || 'listing the memories failed');
  return listed.parse(JSON.parse(result.out));
}

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

function errorText(answers: readonly { t: string; text?: string }[]): string {
  return answers.filter((a) => a.t === 'err').map((a) => a.text ?? '').join('').trim();
}

/** The value with every string longer than `limit` cut, saying how much was left out. */
function capStrings(value: unknown, limit: number): unknown {
  if (typeof value === 'string') return value.length > limit ? `${value.slice(0, limit)}… (${value.length - limit} more characters)` : value;
  if (Array.isArray(value)) return value.map((item) => capStrings(item, limit));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capStrings(v, limit)]));
  return value;
}
