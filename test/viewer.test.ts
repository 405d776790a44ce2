import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.js';
import { openEngine, type ComposedEngine } from '../src/composition/open-engine.js';
import { startViewer, type Viewer } from '../src/viewer/viewer-server.js';
import { memoryTmpdir } from './support/memory-tmpdir.js';
import { cliHere, repoRoot, runCli, tempHomeAt, walkFiles, type TempHome } from './support/temp-home.js';
import { HOSTILE_BODY, SHOP, viewerHistory } from './support/viewer-history.js';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the main pages, for people to look at (gitignored; docs/ keeps one). */
const SHOTS = join(repoRoot, '.tmp', 'viewer-screenshots');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function fetchRaw(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

// In memory: the pages, not the disk under the log (memory-tmpdir.ts).
const tempHome = () => tempHomeAt(mkdtempSync(join(memoryTmpdir(), 'engram-test-')));
let home: TempHome;
let engine: ComposedEngine;
let viewer: Viewer;
let token: string;

beforeAll(async () => {
  home = tempHome();
  engine = await openEngine({ paths: home.paths, clock: fixedClock(new Date('2026-11-03T00:00:00.000Z')) });
  await engine.record(viewerHistory());
  viewer = await startViewer({ engine, livePollMs: 100 });
  token = new URL(viewer.url).searchParams.get('t')!;
});

afterAll(async () => {
  await viewer?.close();
  await engine?.close();
  await home?.cleanup();
});

const typesInLog = async () => {
  const types: string[] = [];
  for await (const batch of engine.log.read()) types.push(...batch.map((e) => e.type));
  return types;
};

describe('the viewer\'s door', () => {
  it('answers 403 without the token, with a wrong one, from a foreign Origin or Host; never a CORS header', async () => {
    const { port } = viewer;
    const answers = [
      await fetchRaw(port, '/timeline'),
      await fetchRaw(port, `/timeline?t=${token.slice(0, -2)}xx`),
      await fetchRaw(port, `/timeline?t=${token}x`),
      await fetchRaw(port, `/timeline?t=${token}`, { headers: { Origin: 'http://evil.example' } }),
      await fetchRaw(port, `/timeline?t=${token}`, { headers: { Origin: `http://127.0.0.1:${port + 1}` } }),
      await fetchRaw(port, `/timeline?t=${token}`, { headers: { Host: `evil.example:${port}` } }),
      await fetchRaw(port, `/action?t=${token}`, { method: 'POST', headers: { Origin: 'http://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=pin&id=m-pnpm' }),
      await fetchRaw(port, '/action', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `action=pin&id=m-pnpm&t=${token}` }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
    for (const answer of answers) expect(answer.body).not.toContain('Use pnpm');
    expect(await typesInLog()).not.toContain('MemoryPinned');
    const ok = await fetchRaw(port, `/timeline?t=${token}`, { headers: { Origin: `http://127.0.0.1:${port}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("default-src 'none'");
    expect(ok.headers['referrer-policy']).toBe('same-origin');
    for (const answer of [...answers, ok]) expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control'))).toEqual([]);
  });

  it('says what is wrong with a bad request, and stays up', async () => {
    const bad = await fetchRaw(viewer.port, `/memories?t=${token}&status=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('bad status');
    expect((await fetchRaw(viewer.port, `/timeline?t=${token}&asof=yesterday`)).body).toContain('--until takes a seq');
    expect((await fetchRaw(viewer.port, `/memory?t=${token}&id=nothing`)).status).toBe(404);
    expect((await fetchRaw(viewer.port, `/nowhere?t=${token}`)).status).toBe(404);
    expect((await fetchRaw(viewer.port, `/timeline?t=${token}`)).status).toBe(200);
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`the viewer in headless Chromium (${CHROMIUM}; skipped when it is not installed: apt-get install chromium)`, () => {
  let browser: Browser;
  let page: Page;
  const url = (path: string, params: Record<string, string> = {}) => `http://127.0.0.1:${viewer.port}${path}?${new URLSearchParams({ ...params, t: token })}`;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('timeline: projects, sessions by day, prompts and tool calls with the failure marked, the compaction', async () => {
    await page.goto(viewer.url);
    expect(await page.locator('#projects').innerText()).toContain(SHOP);
    const days = await page.locator('#days h3').allInnerTexts();
    expect(days).toEqual(['2026-11-02', '2026-11-01']);
    const alphaRow = page.locator('.session-row', { hasText: 'alpha-0000-s' });
    expect(await alphaRow.locator('td.fail').innerText()).toBe('✗ 1');
    expect(await alphaRow.locator('td').last().innerText()).toBe('✓');
    expect(await page.locator('#events').innerText()).toContain('distillation skipped');
    await page.screenshot({ path: join(SHOTS, 'timeline.png'), fullPage: true });
    await alphaRow.locator('a.session').click();
    const events = page.locator('#events');
    expect(await events.innerText()).toContain('please run the checkout tests');
    expect(await events.locator('tr.fail-row').innerText()).toContain('npm run lint');
    expect(await events.innerText()).toContain('compaction');
  });

  it('memories: filters by status and type, sorts by staleness, marks the pinned', async () => {
    await page.goto(url('/memories'));
    expect(await page.locator('#memories tbody tr').count()).toBe(3);
    await page.selectOption('select[name=status]', 'active');
    await page.click('#filter');
    expect(await page.locator('#memories tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).toEqual(['m-pnpm']);
    await page.selectOption('select[name=status]', '');
    await page.selectOption('select[name=type]', 'project');
    await page.click('#filter');
    expect((await page.locator('#memories tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).sort()).toEqual(['m-cents', 'm-guess']);
    expect(await page.locator('#memories').innerText()).toContain('archived');
    await page.goto(url('/memories', { sort: 'staleness', order: 'asc' }));
    const staleness = await page.locator('#memories tbody tr td:nth-child(5)').allInnerTexts();
    expect(staleness.map(Number)).toEqual([...staleness.map(Number)].sort((a, b) => a - b));
    await page.screenshot({ path: join(SHOTS, 'memories.png'), fullPage: true });
  });

  it('a memory: its body as text, never markup; frontmatter; an action that records its event', async () => {
    await page.goto(url('/memory', { id: 'm-pnpm' }));
    expect(await page.locator('#body').innerText()).toBe(HOSTILE_BODY);
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('#body b').count()).toBe(0);
    expect(await page.locator('#frontmatter').innerText()).toContain('name: Use pnpm');
    await page.click('#action-pin');
    await page.waitForSelector('#pinned');
    expect(await page.locator('#message').innerText()).toContain('Use pnpm: pinned');
    expect(await typesInLog()).toContain('MemoryPinned');
    // Provenance: made by the user at seq 6, pinned just now; each step linked to its event.
    const steps = await page.locator('#provenance tbody tr').allInnerTexts();
    expect(steps[0]).toMatch(/^6\s.*created \(MemoryProposed\)\s+user/);
    expect(steps[steps.length - 1]).toMatch(/pinned \(MemoryPinned\)/);
    await page.screenshot({ path: join(SHOTS, 'memory.png'), fullPage: true });
    await page.goto(url('/memory', { id: 'm-cents' }));
    expect(await page.locator('#provenance').innerText()).toMatch(/forgotten \(MemoryForgotten\)\s+we moved to decimals/);
    // A step from a session links to that session's events.
    await page.goto(url('/memory', { id: 'm-guess' }));
    await page.locator('#provenance a.session').click();
    expect(await page.locator('h1').innerText()).toBe('Session beta-0000-session');
    expect(await page.locator('#events').innerText()).toContain('add a health endpoint');
    await page.goto(url('/memories'));
    expect(await page.locator('tr[data-id="m-pnpm"] .pin').count()).toBe(1);
  });

  it('a skill suggestion answered from a memory\'s page: a bad skill name refused, a good one recorded, the buttons gone', async () => {
    await page.goto(url('/memory', { id: 'm-pnpm' }));
    expect(await page.locator('#action-skill-decline').count()).toBe(1);
    const skillField = page.locator('form:has(#action-skill-accept) input[name="reason"]');
    expect(await skillField.getAttribute('placeholder')).toBe('skill name');
    await skillField.fill('../outside');
    const refused = page.waitForResponse((r) => r.url().includes('/action'));
    await page.click('#action-skill-accept');
    expect((await refused).status()).toBe(400);
    expect(await typesInLog()).not.toContain('SkillSuggestionAccepted');
    await page.goto(url('/memory', { id: 'm-pnpm' }));
    await page.locator('form:has(#action-skill-accept) input[name="reason"]').fill('pnpm-rules');
    await page.click('#action-skill-accept');
    await page.waitForSelector('#message');
    expect(await page.locator('#message').innerText()).toContain('implemented in pnpm-rules');
    expect(await typesInLog()).toContain('SkillSuggestionAccepted');
    expect(await page.locator('#action-skill-accept, #action-skill-decline').count()).toBe(0);
  });

  it('as of a past seq or time: the memories then, from a scratch replay that leaves the live files alone', async () => {
    const liveFiles = walkFiles(home.paths.claude, home.paths.views);
    // Seq 8: both first memories proposed, the provisional one and the forgetting not yet.
    await page.goto(url('/memories', { asof: '8' }));
    expect(await page.locator('#asof').innerText()).toContain('As of seq 8');
    expect((await page.locator('#memories tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).sort()).toEqual(['m-cents', 'm-pnpm']);
    expect(await page.locator('#memories').innerText()).not.toContain('archived');
    await page.screenshot({ path: join(SHOTS, 'as-of.png'), fullPage: true });
    await page.locator('a', { hasText: 'Use pnpm' }).click();
    expect(await page.locator('#pinned').count()).toBe(0);
    expect(await page.locator('#asof').count()).toBe(1);
    // Its provenance as of then: made, not yet pinned.
    expect(await page.locator('#provenance tbody tr').count()).toBe(1);
    await page.goto(url('/timeline', { asof: '2026-11-01T12:00:00Z' }));
    expect(await page.locator('#days h3').allInnerTexts()).toEqual(['2026-11-01']);
    expect(walkFiles(home.paths.claude, home.paths.views)).toEqual(liveFiles);
  });

  it('recall traces: the prompt, what was injected and why, what the cut left out', async () => {
    await page.goto(url('/recall'));
    const trace = await page.locator('#recalls').innerText();
    expect(trace).toContain('which package manager do we use here');
    expect(await page.locator('.injected').innerText()).toContain('Use pnpm');
    expect(await page.locator('.injected').innerText()).toContain('bm25+graph:pnpm');
    expect(await page.locator('.left-out').innerText()).toMatch(/Money in cents.*bm25.*under half the best/s);
    await page.screenshot({ path: join(SHOTS, 'recall.png'), fullPage: true });
  });

  it('the browser without the token, and a page of another origin that knows it, get 403 and change nothing', async () => {
    expect((await page.goto(`http://127.0.0.1:${viewer.port}/memories`))?.status()).toBe(403);
    expect((await page.goto(url('/memories').replace(token, 'not-the-token')))?.status()).toBe(403);
    // Another site (here another port) posting a form to the viewer, even with the token: the browser sends its Origin.
    const evil = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<form id="f" method="post" action="${url('/action')}"><input name="action" value="forget"><input name="id" value="m-pnpm"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const refused = page.waitForResponse((r) => r.url().includes('/action'));
      await page.goto(`http://127.0.0.1:${(evil.address() as { port: number }).port}/`);
      expect((await refused).status()).toBe(403);
    } finally {
      evil.close();
    }
    const forgotten = (await typesInLog()).filter((type) => type === 'MemoryForgotten');
    expect(forgotten).toHaveLength(1); // the history's own, for m-cents
  });

  it('a live page says when new events arrive', async () => {
    await page.goto(url('/timeline'));
    expect(await page.locator('#live').isVisible()).toBe(false);
    await engine.record([{ id: 'viewer-test-late-1', type: 'SessionStarted', schemaVersion: 1, ts: '2026-11-02T11:00:00.000Z', session: 'gamma-session', project: SHOP, data: { source: 'startup' } }]);
    await page.waitForSelector('#live', { state: 'visible', timeout: 10_000 });
  });
});

describe('engram ui', () => {
  it('starts the worker, which serves the viewer at a URL with its token; the same URL a second time', async () => {
    const h = tempHome();
    try {
      const first = await runCli(['ui'], h.env);
      expect(first.code, first.stderr).toBe(0);
      const url = new URL(first.stdout.trim());
      expect(url.hostname).toBe('127.0.0.1');
      const port = Number(url.port);
      expect((await fetchRaw(port, `${url.pathname}${url.search}`)).status).toBe(200);
      expect((await fetchRaw(port, '/timeline')).status).toBe(403);
      // The worker's answers, asked from this process: the bin's start and exit were the first's.
      expect((await cliHere(['ui'], h.env)).stdout.trim()).toBe(first.stdout.trim());
      expect((await cliHere(['ui', '--port', 'abc'], h.env)).code).toBe(2);
      // Another port while the viewer runs is said, not silently ignored; its own port is fine.
      const other = await cliHere(['ui', '--port', String(port === 65535 ? 65534 : port + 1)], h.env);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain(`the viewer already runs on port ${port}`);
      expect(other.stdout).toBe('');
      expect((await cliHere(['ui', '--port', String(port)], h.env)).stdout.trim()).toBe(first.stdout.trim());
    } finally {
      await h.cleanup();
    }
  }, 120_000);
});
