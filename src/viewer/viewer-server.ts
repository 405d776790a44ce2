import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { describeError, EngramError, isEngramError } from '../errors.js';
import type { CommandOutput } from '../commands/command.js';
import { resolveUntil } from '../commands/projection-commands.js';
import type { ComposedEngine } from '../composition/open-engine.js';
import type { Engine } from '../engine/engine.js';
import { openAsOf, type AsOfSource } from './as-of-source.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { eventPage } from './pages/event-page.js';
import { logPage, logQuery } from './pages/log-page.js';
import { memoriesPage, memoriesQuery } from './pages/memories-page.js';
import { memoryPage } from './pages/memory-page.js';
import { provenanceSteps } from '../commands/memory-provenance.js';
import { recallPage, recallQuery } from './pages/recall-page.js';
import { timelinePage, timelineQuery } from './pages/timeline-page.js';
import { href, type ViewContext } from './view-context.js';
import { viewerActions } from './viewer-actions.js';
import { eventsBetween, type ViewerSource } from './viewer-source.js';
import { committedRow, memoryKey } from '../projections/memories/memories-rows.js';

export interface ViewerOptions {
  engine: ComposedEngine;
  /** The TCP port on 127.0.0.1. Default 0: a free one the system picks. */
  port?: number;
  /** How often the live notice (/live) looks at the log's head, in ms. Default 1000. */
  livePollMs?: number;
  /** As-of replays kept ready (each a scratch directory). Default 2. */
  asOfKept?: number;
  /** Called for each page or action served, so the worker does not idle out while someone reads. Default nothing. */
  onActivity?(): void;
  /** For the worker's log. Default nothing. */
  log?(line: string): void;
}

export interface Viewer {
  /** The URL to open, with its token. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A memory's newest steps of provenance shown: a memory reinforced a thousand times still makes a short page. */
const HISTORY_SHOWN = 200;

/** Largest POST body an action takes. */
const MAX_BODY = 8 * 1024;

const actionBody = z.object({
  action: z.string().max(40),
  id: z.string().min(1).max(200),
  reason: z.string().max(500).optional(),
});

const memoryQuery = z.object({ id: z.string().min(1).max(200), msg: z.string().max(600).optional() });
const eventQuery = z.object({ seq: z.coerce.number().int().min(1) });

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * The local web viewer, served from the process that holds the log (the worker): bound to
 * 127.0.0.1, and every request must carry this start's random token (`?t=`) and come with our
 * own Host and, when it has one, Origin; anything else is 403. No CORS headers are ever sent, and
 * a strict CSP allows only the inline style and the one nonce'd script of the live notice.
 */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const { engine } = options;
  const token = randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const asOf = new Map<number, Promise<AsOfSource>>();
  const streams = new Set<ServerResponse>();
  let port = 0;
  const live: ViewerSource = {
    get head() {
      return engine.log.head;
    },
    log: engine.log,
    rows: (projection) => engine.runner.rowsOf(projection),
  };

  const asOfSource = (seq: number): Promise<AsOfSource> => {
    let source = asOf.get(seq);
    if (!source) {
      source = openAsOf({ log: engine.log, catalog: engine.catalog, clock: engine.clock, dir: join(engine.paths.home, 'scratch', `viewer-${token.slice(0, 8)}-${seq}`), seq });
      asOf.set(seq, source);
      source.catch(() => asOf.delete(seq));
      // The oldest replay goes once more are kept than asked; a page still reading it finishes first only if it is quick.
      if (asOf.size > (options.asOfKept ?? 2)) {
        const [oldest, dropped] = asOf.entries().next().value as [number, Promise<AsOfSource>];
        asOf.delete(oldest);
        void dropped.then((s) => setTimeout(() => void s.close(), 5_000)).catch(() => undefined);
      }
    }
    return source;
  };

  const allowed = (value: string | undefined, prefix: string) => value === `${prefix}127.0.0.1:${port}` || value === `${prefix}localhost:${port}`;
  const tokenOk = (given: string | null) => {
    if (given === null) return false;
    const bytes = Buffer.from(given);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // A page of another site (or DNS rebinding to this port) carries a foreign Origin or Host.
    if (!allowed(req.headers.host, '')) throw new HttpError(403, 'forbidden: this viewer answers only on 127.0.0.1');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed(origin, 'http://')) throw new HttpError(403, 'forbidden: a request from another origin');
    if (req.headers['sec-fetch-site'] === 'cross-site') throw new HttpError(403, 'forbidden: a cross-site request');
    if (!tokenOk(url.searchParams.get('t'))) throw new HttpError(403, 'forbidden: open the URL `engram ui` printed; it carries this start\'s token');
    const params = Object.fromEntries(url.searchParams);
    delete params.t;
    if (url.pathname === '/live' && req.method === 'GET') return serveLive(res);
    const asOfParam = params.asof;
    delete params.asof;
    const seq = asOfParam === undefined || asOfParam === '' ? undefined : await resolveUntil(engine.log, asOfParam).catch((err: unknown) => {
      throw new HttpError(400, describeError(err));
    });
    const source: ViewerSource = seq === undefined ? live : await asOfSource(seq);
    const ctx: ViewContext = { token, asOf: seq, head: source.head, now: seq === undefined ? engine.clock.now() : await timeOf(source, seq, engine), nonce: randomBytes(12).toString('base64') };
    if (req.method === 'POST' && url.pathname === '/action') return act(req, res, ctx);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'method not allowed');
    options.onActivity?.();
    let page: string;
    switch (url.pathname) {
      case '/':
      case '/timeline':
        page = await timelinePage(source, ctx, parse(timelineQuery, params));
        break;
      case '/log':
        page = await logPage(source, ctx, parse(logQuery, params));
        break;
      case '/memories':
        page = await memoriesPage(source, ctx, parse(memoriesQuery, params));
        break;
      case '/memory': {
        const query = parse(memoryQuery, params);
        const row = await committedRow(source.rows('memories'), memoryKey(query.id));
        if (!row) throw new HttpError(404, `no memory ${query.id}${seq === undefined ? '' : ` as of seq ${seq}`}`);
        // The memory's provenance as of the same point as the page (provenance-rows of a replay, or live).
        const { steps, total } = await provenanceSteps(source.rows('provenance'), row, HISTORY_SHOWN);
        page = memoryPage(ctx, row, steps, total, query.msg);
        break;
      }
      case '/event': {
        const query = parse(eventQuery, params);
        const [event] = query.seq <= source.head ? await eventsBetween(source, query.seq, query.seq) : [];
        if (!event) throw new HttpError(404, `no event ${query.seq}`);
        page = eventPage(ctx, event);
        break;
      }
      case '/recall':
        page = await recallPage(source, ctx, parse(recallQuery, params));
        break;
      default:
        throw new HttpError(404, `no page ${url.pathname}`);
    }
    send(res, 200, page, ctx.nonce);
  };

  /** An action: the CLI's own command, then back to the memory's page saying what it did. */
  const act = async (req: IncomingMessage, res: ServerResponse, ctx: ViewContext): Promise<void> => {
    if (ctx.asOf !== undefined) throw new HttpError(400, 'an as-of view is read-only');
    const form = parse(actionBody, Object.fromEntries(new URLSearchParams(await readBody(req))));
    const action = viewerActions.find((a) => a.name === form.action);
    if (!action) throw new HttpError(400, `unknown action ${JSON.stringify(form.action)}`);
    options.onActivity?.();
    let said = '';
    const output: CommandOutput = {
      out: async (text) => void (said += text),
      err: (text) => void (said += text),
      progress: () => undefined,
    };
    const code = await action.command.run(engine, { query: form.id, ...(form.reason ? { reason: form.reason } : {}) }, output).catch((err: unknown) => {
      throw isEngramError(err, 'USAGE') ? new HttpError(400, err.message) : err;
    });
    options.log?.(`viewer: ${action.name} ${form.id} → ${code}`);
    // The message names where the file is now; the page shows it. 303: the reload is a GET.
    res.writeHead(303, { ...HEADERS, Location: href(ctx, '/memory', { id: form.id, msg: said.trim().slice(0, 600) }, true) });
    res.end();
  };

  const serveLive = (res: ServerResponse): void => {
    res.writeHead(200, { ...HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8' });
    res.write(`data: ${engine.log.head}\n\n`);
    streams.add(res);
    res.on('close', () => streams.delete(res));
  };
  let lastHead = engine.log.head;
  const poll = setInterval(() => {
    const head = engine.log.head;
    if (head === lastHead) return;
    lastHead = head;
    for (const res of streams) res.write(`data: ${head}\n\n`);
  }, options.livePollMs ?? 1000);
  poll.unref();

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) options.log?.(`viewer: ${req.method} ${(req.url ?? '').replace(/t=[^&]*/, 't=…')} failed: ${describeError(err)}`);
      if (res.headersSent) return void res.destroy();
      const message = err instanceof HttpError ? err.message : `the viewer could not make this page: ${describeError(err)}`;
      if (status === 403 || status === 405) {
        // Nothing of the viewer, not even its layout, for a request without the token.
        res.writeHead(status, { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
        return void res.end(`${message}\n`);
      }
      const ctx: ViewContext = { token, asOf: undefined, head: engine.log.head, now: engine.clock.now(), nonce: randomBytes(12).toString('base64') };
      send(res, status, layout(ctx, status === 404 ? 'Not found' : status === 400 ? 'Bad request' : 'Error', 'timeline', html`<p class="fail" id="error">${message}</p>`), ctx.nonce);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new EngramError('USAGE', `the viewer cannot listen on 127.0.0.1:${options.port ?? 0}: ${err.message}`, { cause: err })));
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/?t=${token}`,
    port,
    async close() {
      clearInterval(poll);
      for (const res of streams) res.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      for (const source of asOf.values()) await source.then((s) => s.close()).catch(() => undefined);
      asOf.clear();
    },
  };
}

/** No CORS header, ever; nothing cached; the token never leaves in a Referer to another site; no framing. */
const HEADERS = {
  'Cache-Control': 'no-store',
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on our own form POSTs.
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

function send(res: ServerResponse, status: number, page: string, nonce: string): void {
  res.writeHead(status, {
    ...HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  });
  res.end(page);
}

function parse<T>(schema: z.ZodType<T>, params: Record<string, string>): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HttpError(400, `bad ${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'invalid'}`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) {
        reject(new HttpError(400, 'the form is too large'));
        req.destroy();
      }
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** An as-of page scores memories at the time of the event it stops at, not today's. */
async function timeOf(source: ViewerSource, seq: number, engine: Engine): Promise<Date> {
  const [event] = seq >= 1 ? await eventsBetween(source, seq, seq) : [];
  return event ? new Date(event.ts) : engine.clock.now();
}
