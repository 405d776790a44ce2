import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { syncDir } from '../atomic-write.js';
import { describeError, EngramError } from '../errors.js';
import { describeDamage, isWhole } from '../log/log-check.js';
import { embedderChoice } from '../recall/embedders/embedder-choice.js';
import { reconcileNow } from '../commands/reconcile-command.js';
import { openEngine } from '../composition/open-engine.js';
import { StateStore } from '../engine/state-store.js';
import { takeLogAlone } from './take-log-alone.js';
import type { EngineCommandContext } from './run-engine-command.js';

/**
 * `engram rebuild` (every projection): builds `state/` and `views/` whole in a fresh directory
 * and swaps them in only once that succeeded, so a failed rebuild (a damaged log, a full disk, a
 * kill) leaves the last good state and views in place, and a state that cannot be read whole
 * (a damaged table) is replaced without being read. Runs with the log to itself, like `migrate`.
 * Files in Claude Code's memory directories are written only once the new state is complete and
 * swapped in: the rebuild records their rows as not yet written, and an engine on the swapped
 * state makes them through the ownership rules (the retry of failed rows, which a worker also
 * runs if this process dies first). The vectors are still written in place.
 */
export async function rebuildAside(ctx: EngineCommandContext): Promise<number> {
  const { paths, terminal } = ctx;
  const env = ctx.env ?? process.env;
  const started = performance.now();
  const release = await takeLogAlone(paths);
  const aside = join(paths.home, `rebuild.${process.pid}`);
  const old = join(paths.home, `rebuild.${process.pid}.old`);
  try {
    // What a rebuild killed before it cleaned up left: with the log to this one, none is running.
    for (const name of readdirSync(paths.home)) if (/^rebuild\.\d+(\.old)?$/.test(name)) rmSync(join(paths.home, name), { recursive: true, force: true });
    // A memory file changed by hand since the last round is recorded first, as an event, so the
    // rebuild writes the edit and never the memory as it was. Needs the live state: skipped,
    // and said, when that cannot be read.
    try {
      const live = await openEngine({ paths, clock: ctx.clock });
      try {
        const { appended } = await reconcileNow(live, undefined);
        if (appended > 0) terminal.stderr.write(`recorded ${appended} changes made by hand to memory files before rebuilding\n`);
      } finally {
        await live.close();
      }
    } catch (err) {
      terminal.stderr.write(`hand edits not looked for first (the projection state cannot be read: ${describeError(err)})\n`);
    }
    rmSync(aside, { recursive: true, force: true });
    const fresh = { ...paths, state: join(aside, 'state'), views: join(aside, 'views') };
    // Reactors are not projections: a rebuild never made them start over, nor does this one. The
    // ownership ledger goes first, before any sink of the rebuild asks whose a file is.
    mkdirSync(fresh.state, { recursive: true });
    await StateStore.copyCarriedOver(paths.state, fresh.state);
    const engine = await openEngine({ paths: fresh, clock: ctx.clock, embedder: embedderChoice(env), deferMemoryFiles: true });
    let head: number;
    try {
      // A rebuild from a damaged log would replace good projections with part of them.
      const check = await engine.log.check();
      if (!isWhole(check)) {
        throw new EngramError('LOG_CORRUPT', `${describeDamage(check)}; nothing was rebuilt, the projections and views are as they were: run \`engram log repair\``);
      }
      await engine.runner.rebuild({ onProgress: () => undefined });
      head = engine.log.head;
    } finally {
      await engine.close();
    }
    // The new state's records name its views where they were built; after the swap they are here.
    await StateStore.moveOutputPaths(fresh.state, fresh.views, paths.views);
    // The swap. A crash between renames leaves no state (rebuilt whole on the next open: it is
    // derived) or no views (rewritten by that rebuild), never a mix of old and new.
    rmSync(old, { recursive: true, force: true });
    mkdirSync(old, { recursive: true });
    if (existsSync(paths.state)) renameSync(paths.state, join(old, 'state'));
    if (existsSync(paths.views)) renameSync(paths.views, join(old, 'views'));
    renameSync(fresh.state, paths.state);
    renameSync(fresh.views, paths.views);
    syncDir(paths.home);
    rmSync(old, { recursive: true, force: true });
    await writeMemoryFiles(ctx);
    terminal.stderr.write(`rebuilt every projection from ${head} events, aside, and swapped in, in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
    return 0;
  } finally {
    rmSync(aside, { recursive: true, force: true });
    release();
  }
}

/** The memory directories' files, from the state just swapped in, through the ownership rules. */
async function writeMemoryFiles(ctx: EngineCommandContext): Promise<void> {
  const engine = await openEngine({ paths: ctx.paths, clock: ctx.clock });
  try {
    engine.runner.retryFailedNow();
    await engine.runner.catchUp();
    const left = engine.runner.status().flatMap((lane) => lane.failedRows.map((row) => `${lane.name} ${row.key}: ${row.message}`));
    if (left.length > 0) ctx.terminal.stderr.write(`the files of ${left.length} row(s) could not be written yet (retried by the worker; \`engram doctor\` lists them), the first: ${left[0]}\n`);
  } finally {
    await engine.close();
  }
}
