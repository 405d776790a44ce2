// `npm run bench`: engram's performance budgets (DESIGN.md), each measured as a ratio to a
// baseline taken in the same run, on the same machine, interleaved with it, so that a shared,
// noisy machine slows both sides alike.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Level } from 'level';
import { BUILD_ID } from '../src/build-id.js';
import { fixedClock } from '../src/clock.js';
import { defaultCatalog } from '../src/events/default-catalog.js';
import { systemClockMicros } from '../src/events/event-id.js';
import { EventCodec, seqKey } from '../src/log/event-codec.js';
import { LevelEventLog } from '../src/log/level-event-log.js';
import { resolvePaths } from '../src/paths.js';
import { allProjections } from '../src/projections/all-projections.js';
import { StateStore } from '../src/engine/state-store.js';
import { ingestSpool } from '../src/ingest/ingest.js';
import { ProjectionRunner } from '../src/engine/projection-runner.js';
import { syntheticEvents } from './synthetic-events.js';
import { hookBench } from './hook-bench.js';
import { flatCostBench, proposalCostBench, rebuildInChild } from './flat-cost-bench.js';
import { redactionBench } from './redaction-bench.js';
import { embedBench } from './embed-bench.js';
import { transcriptBench } from './transcript-bench.js';
import { backfillBench } from './backfill-bench.js';
import { recallIndexBench } from './recall-index-bench.js';
import { useLiteEmbedder, WARM_UP_CALLS } from '../src/recall/embedders/use-lite-embedder.js';
import { recallHookBench, recallHookVectorsBench, recallQueryBench } from './recall-bench.js';
import { viewerBench } from './viewer-bench.js';
import { mcpSearchBench } from './mcp-bench.js';
import { durableAppendBench } from './durable-append-bench.js';
import { importBench } from './import-bench.js';
import { workerRssBench } from './worker-rss-bench.js';
import { cliBench } from './cli-bench.js';
import { syncBench } from './sync-bench.js';

const repo = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'engram-bench-'));
const rows: Array<{ what: string; ratio: number; target: string; ok: boolean; detail: string }> = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// `npm run bench -- --only hooks,cli`: only those groups (docs/performance.md lists them).
const groups: Record<string, () => unknown> = {
  hooks: benchHooks,
  cli: benchCli,
  ingest: benchIngest,
  'durable-append': benchDurableAppend,
  rebuild: benchRebuild,
  'flat-cost': benchFlatCost,
  redaction: benchRedaction,
  embed: benchEmbed,
  transcript: benchTranscript,
  backfill: benchBackfill,
  'recall-index': benchRecallIndex,
  recall: benchRecall,
  viewer: benchViewer,
  mcp: benchMcp,
  import: benchImport,
  'worker-rss': benchWorkerRss,
  proposal: benchProposal,
  sync: benchSync,
};
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? Object.keys(groups) : (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean);
const unknown = only.filter((name) => !Object.hasOwn(groups, name));
if (unknown.length > 0 || only.length === 0) {
  console.error(`bench: --only takes groups among ${Object.keys(groups).join(', ')}${unknown.length > 0 ? `, not ${unknown.join(', ')}` : ''}`);
  process.exit(2);
}

try {
  for (const name of only) await groups[name]!();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

console.log('\nengram bench — ratios measured in this run\n');
for (const row of rows) {
  console.log(`${row.ok ? 'ok  ' : 'MISS'} ${row.what.padEnd(44)} ${row.ratio.toFixed(2).padStart(6)}×  (target ${row.target})  ${row.detail}`);
}
process.exitCode = 0;

async function benchSync(): Promise<void> {
  const r = await syncBench({ repo, dir: join(scratch, 'sync'), corrections: Number(process.env.ENGRAM_BENCH_SYNC_CORRECTIONS) || 20, backlog: 5_000, rounds: 2, hookRuns: Number(process.env.ENGRAM_BENCH_RUNS) || 20 });
  if (!r) return;
  const { lag, catchUp, hooks } = r;
  rows.push({
    what: 'sync: correction on A → memory file on B, vs on A',
    ratio: lag.medianMs / lag.localMedianMs,
    target: 'reported',
    ok: true,
    detail: `B: median ${lag.medianMs.toFixed(0)} ms, p95 ${lag.p95Ms.toFixed(0)} ms; A itself: median ${lag.localMedianMs.toFixed(0)} ms, p95 ${lag.localP95Ms.toFixed(0)} ms; ${lag.corrections} corrections through the prompt hook, loopback nats-server${r.forwarderCpuMs === undefined ? '' : `; A's worker used ${r.forwarderCpuMs.toFixed(0)} ms CPU over them`}`,
  });
  rows.push({
    what: `sync: catch-up of ${catchUp.events.toLocaleString('en')} events vs local ingest`,
    ratio: catchUp.importPerS / catchUp.localPerS,
    target: 'reported',
    ok: true,
    detail: `from the stream ${catchUp.importPerS.toFixed(0)} events/s folded (${catchUp.importToLogPerS.toFixed(0)}/s into the log) vs from the spool ${catchUp.localPerS.toFixed(0)}/s (${catchUp.localToLogPerS.toFixed(0)}/s); worker start included, median of ${catchUp.rounds}; ${catchUp.bytesPerEvent.toFixed(0)} B/event`,
  });
  const { idle } = r;
  if (idle.onCpuMs !== undefined && idle.offCpuMs !== undefined) {
    rows.push({
      what: `sync: idle worker CPU over ${idle.seconds} s, sync on vs off`,
      ratio: idle.onCpuMs / Math.max(idle.offCpuMs, 10),
      target: 'reported',
      ok: true,
      detail: `${idle.onCpuMs.toFixed(0)} ms vs ${idle.offCpuMs.toFixed(0)} ms of CPU (a tick is 10 ms)${idle.messagesIn === undefined ? '' : `; its one connection sent ${idle.messagesIn} and got ${idle.messagesOut} messages (server's connz; ${idle.connections} connections on the server)`}`,
    });
  }
  rows.push({
    what: 'sync: prompt hook with sync on vs off',
    ratio: hooks.onMs / hooks.offMs,
    target: '≤ 1.10',
    ok: hooks.onMs / hooks.offMs <= 1.1,
    detail: `median ${hooks.onMs.toFixed(1)} ms vs ${hooks.offMs.toFixed(1)} ms over ${hooks.runs} runs each, interleaved; hooks never connect`,
  });
  rows.push({
    what: 'sync: post-tool-use hook with sync on vs off',
    ratio: hooks.postToolOnMs / hooks.postToolOffMs,
    target: '≤ 1.10',
    ok: hooks.postToolOnMs / hooks.postToolOffMs <= 1.1,
    detail: `median ${hooks.postToolOnMs.toFixed(1)} ms vs ${hooks.postToolOffMs.toFixed(1)} ms over ${hooks.runs} runs each, interleaved`,
  });
}

async function benchViewer(): Promise<void> {
  const r = await viewerBench(join(scratch, 'viewer'), { events: 100_000, memories: 10_000, rounds: 30 });
  const ms = (t: { medianMs: number; p95Ms: number }) => `median ${t.medianMs.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms`;
  rows.push({
    what: `viewer: memories page, ${r.memories.toLocaleString('en')} memories, vs reading their rows`,
    ratio: r.memoriesPage.medianMs / r.memoriesRows.medianMs,
    target: 'reported',
    ok: true,
    detail: `${ms(r.memoriesPage)} over HTTP (${(r.memoriesBytes / 1024).toFixed(0)} KiB); reading the directories' rows alone ${ms(r.memoriesRows)}`,
  });
  rows.push({
    what: `viewer: timeline, ${r.events.toLocaleString('en')} events, vs a refused request`,
    ratio: r.timelinePage.medianMs / r.refused.medianMs,
    target: 'reported',
    ok: true,
    detail: `${ms(r.timelinePage)} over HTTP (${(r.timelineBytes / 1024).toFixed(0)} KiB); a 403 round trip ${ms(r.refused)}`,
  });
}

async function benchMcp(): Promise<void> {
  const r = await mcpSearchBench({ repo, scratch, runs: 20, size: 1_000 });
  rows.push({
    what: 'MCP search_memories round trip vs engram query',
    ratio: r.mcpMs / r.queryMs,
    target: '≤ 1.00',
    ok: r.mcpMs <= r.queryMs && r.same === r.runs,
    detail: `median ${r.mcpMs.toFixed(1)} ms (p95 ${r.mcpP95Ms.toFixed(1)} ms) vs ${r.queryMs.toFixed(1)} ms; 1,000 memories; same ranking in ${r.same}/${r.runs} runs, ${r.found} found something`,
  });
}

async function benchRecall(): Promise<void> {
  const vectors = await recallHookVectorsBench({ repo, scratch, runs: 30, coldRuns: 5 });
  const { cold } = vectors;
  rows.push({
    what: 'first prompt after a cold worker start, USE Lite',
    ratio: cold.medianMs / cold.baselineMs,
    target: 'reported',
    ok: true,
    detail: `${cold.recalled}/${cold.runs} prompts recalled something, ${cold.byWorker} answered by the worker (not the hook's fallback); median ${cold.medianMs.toFixed(1)} ms vs node -e 0 ${cold.baselineMs.toFixed(1)} ms`,
  });
  // 10,000 memories (issue 20): the held-out run saw 1.80× over 5,882 where 1,000 gave 1.39×.
  const atScale = [...(await recallHookBench({ repo, scratch, runs: 20, size: 10_000, vectors: true })), ...(await recallHookBench({ repo, scratch, runs: 20, size: 10_000 }))];
  for (const [i, r] of [vectors, ...atScale].entries()) {
    const target = r.worker === 'none' ? 2 : 1.5;
    const what = { vectors: 'warm worker, USE Lite', warm: 'warm worker, vectors off', none: 'no worker' }[r.worker];
    const over = i === 0 ? 'the evaluation memories and questions' : `10,000 memories${r.worker === 'vectors' ? ' and their vectors' : ''}`;
    rows.push({
      what: `hook user-prompt-submit, recall, ${what}${i === 0 ? '' : ', 10k'}`,
      ratio: r.medianMs / r.baselineMs,
      target: `≤ ${target.toFixed(2)}`,
      ok: r.medianMs / r.baselineMs <= target,
      detail: `median ${r.medianMs.toFixed(1)} ms vs node -e 0 ${r.baselineMs.toFixed(1)} ms; ${over}, ${r.recalled}/${r.runs} prompts recalled something`,
    });
  }
  const results = await recallQueryBench(scratch, [1_000, 10_000, 100_000]);
  for (const r of results) {
    rows.push({
      what: `recall query, warm, ${r.size.toLocaleString('en')} memories`,
      ratio: r.medianMs / results[0]!.medianMs,
      target: '< 30 ms',
      ok: r.p95Ms < 30,
      detail: `median ${r.medianMs.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms (BM25, fusion, cut; ratio to 1,000)`,
    });
  }
  // The same with the worker's vector signal: the query embedded by USE Lite, the vectors searched.
  // Warmed as the worker's is (use-lite-embedder.ts WARM_UP_CALLS): the rows measure a worker's answers, not a fresh model's first calls.
  const embedder = useLiteEmbedder({ warmUp: WARM_UP_CALLS });
  try {
    const withVectors = await recallQueryBench(join(scratch, 'with-vectors'), [1_000, 10_000, 100_000], 40, embedder);
    for (const r of withVectors) {
      rows.push({
        what: `recall query + vectors, warm, ${r.size.toLocaleString('en')} memories`,
        ratio: r.medianMs / withVectors[0]!.medianMs,
        target: 'reported',
        ok: true,
        detail: `median ${r.medianMs.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms (query embedded, vectors searched: the in-memory mirror up to 50,000, LanceDB past it; BM25, fusion, cut; ratio to 1,000)`,
      });
    }
    // The ranking alone with vectors on (MCP search, engram query --all --limit 10): p95 < 30 ms at 10,000.
    // Each size's embedding is timed apart: it is the one part that does not grow with the memories.
    const ranking = await recallQueryBench(join(scratch, 'ranking-vectors'), [1_000, 10_000, 100_000], 40, embedder, { ranking: true, timeEmbedding: true });
    for (const r of ranking) {
      rows.push({
        what: `ranking (--all --limit 10) + vectors, warm, ${r.size.toLocaleString('en')} memories`,
        ratio: r.medianMs / ranking[0]!.medianMs,
        target: r.size === 10_000 ? 'p95 < 30 ms' : 'reported',
        ok: r.size !== 10_000 || r.p95Ms < 30,
        detail: `median ${r.medianMs.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms, of which the query's embedding median ${r.embedMedianMs?.toFixed(2)} ms (USE Lite on ${embedder.kernel?.() ?? 'its thread'}; vectors from the in-memory mirror up to 50,000, LanceDB past it; BM25 over every memory sharing a word, fusion; ratio to 1,000)`,
      });
    }
  } finally {
    await embedder.close();
  }
}

function benchRecallIndex(): void {
  const results = recallIndexBench(scratch, [1_000, 10_000, 100_000]);
  const base = results[0]!;
  for (const result of results) {
    const of = (ms: number) => `${ms.toFixed(2)} ms`;
    rows.push({
      what: `recall: lexical index, ${result.size.toLocaleString('en')} memories vs 1,000`,
      ratio: result.medianMs / base.medianMs,
      target: 'reported',
      ok: true,
      detail: `read + open + query, median ${of(result.medianMs)}, p95 ${of(result.p95Ms)} (1,000: ${of(base.medianMs)}, p95 ${of(base.p95Ms)}); file ${(result.fileBytes / 1e6).toFixed(1)} MB`,
    });
  }
}

function benchImport(): void {
  const r = importBench({ repo, dir: join(scratch, 'import'), memories: 5000, projects: 10 });
  const seconds = r.ms / 1000;
  rows.push({
    what: `import ${r.memories.toLocaleString('en')} memories (vectors off) vs 60 s`,
    ratio: seconds / 60,
    target: '< 1.00',
    ok: seconds < 60,
    detail: `${seconds.toFixed(1)} s for ${r.projects} \`engram import\` runs${r.cpuMs === undefined ? '' : `, ${(r.cpuMs / 1000).toFixed(1)} s of CPU`}`,
  });
}

async function benchWorkerRss(): Promise<void> {
  const r = await workerRssBench({ repo, dir: join(scratch, 'worker-rss') });
  rows.push({
    what: 'worker RSS idle without the model vs 100 MB',
    ratio: r.letGoMb / 100,
    target: '≤ 1.00',
    ok: r.letGoMb <= 100,
    detail: `after letting it go ${r.letGoMb} MB, with the model ${r.withModelMb} MB, before it ever loaded ${r.neverLoadedMb} MB`,
  });
}

async function benchEmbed(): Promise<void> {
  // The cold side embeds every memory with the real model (about 15 ms each here): minutes at
  // 10,000 on a busy machine. ENGRAM_BENCH_MEMORIES runs it smaller.
  const memories = Number(process.env.ENGRAM_BENCH_MEMORIES) || 10_000;
  const r = await embedBench(join(scratch, 'embed'), memories);
  const ratio = r.warmMs / r.coldMs;
  rows.push({
    what: `vectors rebuild, ${memories.toLocaleString('en')} memories: warm cache vs cold`,
    ratio,
    target: '≤ 0.10',
    ok: ratio <= 0.1 && r.embeddedWarm === 0 && r.rowsWarm === r.rowsCold,
    detail: `warm ${(r.warmMs / 1000).toFixed(2)} s (${r.embeddedWarm} texts embedded), cold ${(r.coldMs / 1000).toFixed(1)} s (${r.embeddedCold} embedded, ${(r.coldMs / r.embeddedCold).toFixed(1)} ms each); ${r.rowsWarm} rows after both`,
  });
}

function benchRedaction(): void {
  const r = redactionBench();
  rows.push({
    what: 'redaction: 8 MB vs 8 × 1 MB (linear time)',
    ratio: r.linearity,
    target: '≤ 1.50',
    ok: r.linearity <= 1.5,
    detail: `1 MB mixed ${r.mixedMs.toFixed(0)} ms (${(r.mixedMs / r.scanMs).toFixed(0)}× a replace scan of it), 21 KB prompt ${r.promptMs.toFixed(1)} ms, 1 MB adversarial ${r.adversarialMs.toFixed(0)} ms`,
  });
}

function benchTranscript(): void {
  const r = transcriptBench(scratch, 300);
  rows.push({
    what: `transcript capture: ${r.mb.toFixed(0)} MB vs streaming its bytes`,
    ratio: r.captureMs / r.readMs,
    target: 'peak RSS ≤ 200 MB',
    ok: r.captureRssMb <= 200,
    detail: `capture ${(r.captureMs / 1000).toFixed(1)} s (${(r.mb / (r.captureMs / 1000)).toFixed(0)} MB/s), peak RSS ${r.captureRssMb.toFixed(0)} MB; read ${(r.readMs / 1000).toFixed(1)} s, peak RSS ${r.readRssMb.toFixed(0)} MB`,
  });
}

function benchBackfill(): void {
  const r = backfillBench(scratch, 200);
  const rate = (run: { mb: number; ms: number; events: number }) => `${(run.mb / (run.ms / 1000)).toFixed(1)} MB/s, ${Math.round(run.events / (run.ms / 1000))} events/s`;
  const ratio = r.big.peakRssMb / r.small.peakRssMb;
  rows.push({
    what: `backfill: peak RSS, ${r.big.mb.toFixed(0)} MB vs ${r.small.mb.toFixed(0)} MB transcript`,
    ratio,
    target: '≤ 1.50 (flat)',
    ok: ratio <= 1.5,
    detail: `${r.big.mb.toFixed(0)} MB: ${(r.big.ms / 1000).toFixed(1)} s, ${rate(r.big)}, ${r.big.events} events, peak RSS ${r.big.peakRssMb.toFixed(0)} MB (${(r.big.ms / r.readMs).toFixed(1)}× streaming its bytes); ${r.small.mb.toFixed(0)} MB: ${rate(r.small)}, peak RSS ${r.small.peakRssMb.toFixed(0)} MB`,
  });
}

async function benchHooks(): Promise<void> {
  const results = await hookBench({ repo, scratch, runs: Number(process.env.ENGRAM_BENCH_RUNS) || 20 });
  for (const result of results) {
    const huge = result.hook.includes('5 MB');
    if (result.hook.includes('node:net')) {
      rows.push({ what: 'loading node:net, which hooks avoid', ratio: result.ratio, target: 'reported', ok: true, detail: `a script requiring node:fs and node:net, median ${result.medianMs.toFixed(1)} ms vs node:fs alone ${result.baselineMs.toFixed(1)} ms` });
      continue;
    }
    // The prompt hook asks the worker for recall when a prompt has content words: DESIGN.md
    // gives it 1.5× with a warm worker; the other hooks only append.
    // Issue 22: the hooks that only append, 1.15× (the goal beyond, 1.10×); the bad-stdin and
    // printing rows keep the older 1.3×.
    const appendOnly = !result.hook.includes(',') && !result.hook.startsWith('user-prompt-submit');
    const limit = result.hook.startsWith('user-prompt-submit') ? 1.5 : appendOnly ? 1.15 : 1.3;
    rows.push({
      what: `hook ${result.hook}`,
      ratio: result.ratio,
      target: huge ? 'reported' : `≤ ${limit.toFixed(2)}`,
      ok: huge || result.ratio <= limit,
      detail: `median ${result.medianMs.toFixed(1)} ms vs ${huge ? 'node reading the same stdin' : 'node -e 0'} ${result.baselineMs.toFixed(1)} ms`,
    });
  }
}

function benchCli(): void {
  // Issue 22: help, and a command the running worker answers, ≤ 1.5× node -e 0.
  for (const r of cliBench({ repo, scratch, runs: Number(process.env.ENGRAM_BENCH_RUNS) || 20 })) {
    rows.push({
      what: `cli start: ${r.what}`,
      ratio: r.ratio,
      target: '≤ 1.50',
      ok: r.ratio <= 1.5,
      detail: `median ${r.medianMs.toFixed(1)} ms vs node -e 0 ${r.baselineMs.toFixed(1)} ms`,
    });
  }
}

async function benchIngest(): Promise<void> {
  const unstamped = syntheticEvents({ sessions: 100, eventsPerSession: 100, seed: 11 });
  // As this build's hooks write them: stamped with the build, so the log's redaction door knows
  // the hook already redacted them (src/redaction/redact-envelope.ts). The same events unstamped
  // take the door's full pass, as an event no hook made does: reported beside.
  const events = unstamped.map((event) => ({ ...event, producer: BUILD_ID }));
  const codec = new EventCodec();
  const ratios: number[] = [];
  const doorRatios: number[] = [];
  const spoolRatios: number[] = [];
  let detail = '';
  // Round 0 warms up the JIT on both sides and is not counted.
  for (let round = 0; round < 8; round++) {
    // Baseline: the same events, already encoded, written in one raw LevelDB batch per 500.
    const raw = new Level<string, Uint8Array>(join(scratch, `raw-${round}`), { valueEncoding: 'view' });
    await raw.open();
    const encoded = events.map((e) => codec.encode(e));
    let t = performance.now();
    for (let i = 0; i < encoded.length; i += 500) {
      await raw.batch(encoded.slice(i, i + 500).map((value, j) => ({ type: 'put' as const, key: seqKey(i + j + 1), value })));
    }
    const rawMs = performance.now() - t;
    await raw.close();

    // The log's append path: envelope check, id dedupe, encode, event + id in one batch. Unsynced,
    // like the raw batch it is compared with: the sync's own cost is the next row's.
    const log = await LevelEventLog.open(join(scratch, `log-${round}`), { durable: false });
    t = performance.now();
    for (let i = 0; i < events.length; i += 500) await log.append(events.slice(i, i + 500));
    const appendMs = performance.now() - t;
    await log.close();
    const doorLog = await LevelEventLog.open(join(scratch, `door-${round}`));
    t = performance.now();
    for (let i = 0; i < unstamped.length; i += 500) await doorLog.append(unstamped.slice(i, i + 500));
    const doorMs = performance.now() - t;
    await doorLog.close();

    // The whole ingest: spool files read, parsed, checked against their schema, appended, removed.
    const home = join(scratch, `home-${round}`);
    const paths = resolvePaths({ ENGRAM_HOME: home, CLAUDE_CONFIG_DIR: join(scratch, 'claude') });
    mkdirSync(paths.spoolNew, { recursive: true });
    events.forEach((e, i) => writeFileSync(join(paths.spoolNew, `${String(1e15 + i)}-1-00000000.json`), JSON.stringify(e)));
    const spoolLog = await LevelEventLog.open(paths.log);
    t = performance.now();
    await ingestSpool({ log: spoolLog, catalog: defaultCatalog(), paths, nowMicros: systemClockMicros });
    const spoolMs = performance.now() - t;
    await spoolLog.close();

    if (round === 0) continue;
    ratios.push(rawMs / appendMs);
    doorRatios.push(rawMs / doorMs);
    spoolRatios.push(rawMs / spoolMs);
    detail = `${events.length} events: raw ${rawMs.toFixed(0)} ms, append ${appendMs.toFixed(0)} ms, spool→log ${spoolMs.toFixed(0)} ms`;
  }
  const ratio = median(ratios);
  rows.push({ what: 'ingest: log append vs raw LevelDB batch', ratio, target: '≥ 0.50', ok: ratio >= 0.5, detail: `median of 7; last: ${detail}` });
  rows.push({
    what: 'ingest: log append of events no hook made (full redaction pass) vs raw LevelDB batch',
    ratio: median(doorRatios),
    target: 'reported',
    ok: true,
    detail: 'every string of every event through the redaction rules, as for remember, import, reactors',
  });
  const spool = median(spoolRatios);
  rows.push({
    what: 'ingest: spool files → log vs raw LevelDB batch',
    ratio: spool,
    target: 'reported',
    ok: true,
    detail: 'one file read, parsed, validated and unlinked per event: file-system bound',
  });
}

async function benchDurableAppend(): Promise<void> {
  const r = await durableAppendBench(scratch);
  const [busy, single] = r.perRound;
  rows.push({
    what: 'ingest: synced append vs unsynced, 500 a round',
    ratio: busy!.syncedMs / busy!.unsyncedMs,
    target: 'reported',
    ok: true,
    detail: `median of 9 interleaved: ${busy!.syncedMs.toFixed(2)} ms vs ${busy!.unsyncedMs.toFixed(2)} ms a round (one sync a round, not per event)`,
  });
  rows.push({
    what: 'ingest: synced append vs unsynced, 1 a round',
    ratio: single!.syncedMs / single!.unsyncedMs,
    target: 'reported',
    ok: true,
    detail: `median of 9 interleaved: ${single!.syncedMs.toFixed(2)} ms vs ${single!.unsyncedMs.toFixed(2)} ms (a lone hook's event: the sync is the whole cost)`,
  });
}

async function benchFlatCost(): Promise<void> {
  const sizes = [10_000, 100_000, 1_000_000];
  const results = await flatCostBench(scratch, sizes, 60);
  const base = results[0]!;
  for (const result of results.slice(1)) {
    const ratio = result.medianMs / base.medianMs;
    rows.push({
      what: `one new event, ${result.size.toLocaleString('en')} vs ${base.size.toLocaleString('en')} of history`,
      ratio,
      target: '≤ 1.50',
      ok: ratio <= 1.5,
      detail: `median of 50, interleaved: ${result.medianMs.toFixed(2)} ms vs ${base.medianMs.toFixed(2)} ms (append, fold, files, commit)`,
    });
  }
  const rebuild = rebuildInChild(join(scratch, `history-${sizes.at(-1)}`));
  rows.push({
    what: `rebuild ${rebuild.events.toLocaleString('en')} events vs decode, in its own process`,
    ratio: rebuild.rebuildMs / rebuild.decodeMs,
    target: 'reported',
    ok: true,
    detail: `rebuild ${(rebuild.rebuildMs / 1000).toFixed(1)} s, iterate+decode ${(rebuild.decodeMs / 1000).toFixed(1)} s, peak RSS ${rebuild.peakRssMb.toFixed(0)} MB`,
  });
}

async function benchProposal(): Promise<void> {
  const sizes = [10, 1000, 5000];
  const results = await proposalCostBench(scratch, sizes, 50, ['memories']);
  const base = results[0]!;
  for (const result of results.slice(1)) {
    const ratio = result.medianMs / base.medianMs;
    rows.push({
      what: `a proposal, ${result.memories.toLocaleString('en')} vs ${base.memories} memories in its dir`,
      ratio,
      target: '≤ 1.50',
      ok: ratio <= 1.5,
      detail: `median of 40, interleaved: ${result.medianMs.toFixed(2)} ms vs ${base.medianMs.toFixed(2)} ms (append, fold, memory file, MEMORY.md, commit); CPU ${result.medianCpuMs.toFixed(2)} vs ${base.medianCpuMs.toFixed(2)} ms (${(result.medianCpuMs / base.medianCpuMs).toFixed(2)}×)`,
    });
  }
}

async function benchRebuild(): Promise<void> {
  const events = syntheticEvents({ sessions: 1000, eventsPerSession: 100, seed: 5, projects: 8 });
  const dir = join(scratch, 'rebuild');
  const log = await LevelEventLog.open(join(dir, 'log'));
  for (let i = 0; i < events.length; i += 5000) await log.append(events.slice(i, i + 5000));
  const decodeTimes: number[] = [];
  const rebuildTimes: number[] = [];
  // CPU time too (this process's threads, LevelDB's included): on a loaded machine it says more than the wall clock.
  const cpuRatios: number[] = [];
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const store = await StateStore.open(join(dir, 'state'), { now: () => new Date() });
  const runner = new ProjectionRunner({
    log,
    catalog: defaultCatalog(),
    store,
    projections: allProjections({ views: join(dir, 'views'), claude: join(dir, 'claude') }),
    clock: fixedClock(new Date()),
  });
  await runner.start();
  // Round 0 warms up and is not counted.
  for (let round = 0; round < 5; round++) {
    // Baseline: iterate the same LevelDB and decode every value, nothing else.
    let t = performance.now();
    let cpu = cpuMs();
    let count = 0;
    for await (const batch of log.read({ batchSize: 1000 })) count += batch.length;
    const decodeMs = performance.now() - t;
    const decodeCpu = cpuMs() - cpu;
    if (count !== events.length) throw new Error(`read ${count} of ${events.length}`);
    t = performance.now();
    cpu = cpuMs();
    await runner.rebuild();
    if (round === 0) continue;
    decodeTimes.push(decodeMs);
    rebuildTimes.push(performance.now() - t);
    cpuRatios.push((cpuMs() - cpu) / decodeCpu);
  }
  await store.close();
  await log.close();
  const decodeMs = median(decodeTimes);
  const rebuildMs = median(rebuildTimes);
  const ratio = rebuildMs / decodeMs;
  rows.push({
    what: 'rebuild 100k events (1,000 sessions) vs decode',
    ratio,
    // Issue 22: the cost of a rebuild stays within twice merely reading the log.
    target: '≤ 2.00',
    ok: ratio <= 2,
    detail: `median of 4: rebuild ${rebuildMs.toFixed(0)} ms, iterate+decode ${decodeMs.toFixed(0)} ms; CPU time ${median(cpuRatios).toFixed(2)}×`,
  });
}
