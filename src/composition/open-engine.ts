import type { Clock } from '../clock.js';
import type { SettingsReport } from '../config/effective-settings.js';
import type { EngramPaths } from '../paths.js';
import { allProjections } from '../projections/all-projections.js';
import type { Embedder } from '../indexes/embedder.js';
import { embedderFor, type EmbedderChoice } from '../recall/embedders/embedder-choice.js';
import { cachedEmbedder, EmbeddingCache } from '../recall/embedding-cache.js';
import { unloadWhenIdle, type IdleUnloading } from '../recall/embedders/unload-when-idle.js';
import type { Reactor } from '../engine/reactor.js';
import { VectorStore } from '../indexes/vector-store.js';
import { Engine, type EngineParts } from '../engine/engine.js';
import type { IngestOptions } from '../ingest/ingest.js';
import { distillerReactor, type DistillerDeps, type DistillerOptions } from '../reactors/distiller.js';
import { maintenanceReactor } from '../reactors/maintenance.js';
import { reconcilerReactor } from '../reactors/reconciler.js';
import { skillCuratorReactor } from '../reactors/skill-curator.js';
import { skillFilesReactor } from '../reactors/skill-files.js';
import { skillMatcherReactor } from '../reactors/skill-matcher.js';
import type { SkillsSetup } from '../reactors/skills-from-env.js';
import { skillsInventoryReactor } from '../reactors/skills-inventory.js';
import { transcriptCaptureReactor } from '../reactors/transcript-capture.js';
import { turnAuditReactor } from '../reactors/turn-audit.js';

/** What recall needs for its vector list (searchVectors): the table and the query embedder. */
export interface EngineVectors {
  store: VectorStore;
  /**
   * The chosen model, for queries: they go to it directly, so prompts do not pile up in the
   * embedding cache. The sink indexes through the cache (only a writing engine has it).
   */
  embedder: Embedder;
}

/** What the commands find beside the log (`engine.services`). */
export interface EngineServices {
  /** The vectors, when an embedder was chosen. */
  vectors?: EngineVectors;
  /** The distiller's LLM, transcript reader and settings, when this process has one (see distillerFromEnv). */
  distiller?: { deps: DistillerDeps; options?: DistillerOptions };
  /** The skills reactors' settings this engine was opened with (see skillsFromEnv). */
  skills?: SkillsSetup;
  /** The settings this process runs with, for `engram doctor` (the worker's when it answers). */
  settings?: SettingsReport;
  /**
   * Whether the vectors' model is in memory: `off` without vectors, `loaded`, or `not loaded`
   * (never asked yet, or let go after ENGRAM_MODEL_IDLE_MS unused); and, where it is let go when
   * unused, after how long and how many times so far; once loaded, what runs it, and the resident
   * memory of its own process when it has one (USE Lite on onnxruntime: not in the status's `rssMb`).
   */
  model(): { state: 'off' | 'loaded' | 'not loaded'; kernel?: string; rssMb?: number; idleMs?: number; unloads?: number };
}

/** The engine as the worker and the CLI's commands hold it: this build's projections and reactors. */
export type ComposedEngine = Engine<EngineServices>;

export interface OpenEngineOptions {
  paths: EngramPaths;
  clock: Clock;
  /** See EngineOptions.access. Default `write`. */
  access?: 'read' | 'write';
  /** How long between two maintenance ticks the worker runs by itself. Default one day. */
  maintainEveryMs?: number;
  /** Spool ingest settings; see IngestOptions for each default. */
  ingest?: IngestOptions;
  /**
   * The distiller's LLM, transcript reader and settings. Default: none, and no distiller runs
   * (the worker and `engram distill` wire one from the environment: see distiller-from-env.ts).
   */
  distiller?: { deps: DistillerDeps; options?: DistillerOptions };
  /** Passed to the runner; tests use it to crash between a sink write and its checkpoint. */
  afterSinkApplied?: (projector: string, seq: number) => void;
  /**
   * The embedder of the vectors projection (see embedderChoice for `ENGRAM_EMBEDDER`). Default
   * `off`: no vectors projection, no model; the worker and the CLI pass the environment's choice.
   */
  embedder?: EmbedderChoice;
  /** The skills reactors' settings: match threshold, curator, post-turn audit (see skillsFromEnv). Default: their defaults, no audit. */
  skills?: SkillsSetup;
  /** The settings this process runs with, for `engram doctor` (the worker's when it answers). */
  settings?: SettingsReport;
  /** More reactors, run after the built-in ones: the worker's sync forwarder (src/sync). */
  reactors?: readonly Reactor[];
  /** Which events the sync brought in from another machine (see ReactorContext.elsewhere). Default: none. */
  elsewhere?: (ids: readonly string[]) => Promise<boolean[]>;
  /**
   * Let go of the model after this many ms unused, and load it again when next asked (the
   * worker: ENGRAM_MODEL_IDLE_MS). Default: keep it (a command ends soon anyway).
   */
  modelIdleMs?: number;
  /** The model answers prompt after prompt (the worker): warm it as it loads (embedderFor's `warm`). Default false. */
  warmModel?: boolean;
  /** Told each time the model is let go for being unused. */
  onModelUnloaded?: () => void;
  /** Told at each load of the model what runs it (the worker writes it to worker.log). */
  onModelLoaded?: (kernel: string) => void;
  /**
   * Write no file in Claude Code's memory directories: the rows that have one are recorded as
   * failed, to be made by the next engine's retry (a whole rebuild built aside). Default false.
   */
  deferMemoryFiles?: boolean;
}

/**
 * Opens the engine with every projection and reactor of this build: the one place they are
 * wired (the worker's start and the CLI commands that open the log go through it), so the
 * engine itself depends on no recall, skill or distiller code. EngramError LOG_LOCKED when
 * another process holds the log.
 */
export function openEngine(options: OpenEngineOptions): Promise<ComposedEngine> {
  return Engine.open<EngineServices>({
    paths: options.paths,
    clock: options.clock,
    access: options.access,
    ingest: options.ingest,
    afterSinkApplied: options.afterSinkApplied,
    elsewhere: options.elsewhere,
    parts: ({ write }) => engineParts(options, write),
  });
}

async function engineParts(options: OpenEngineOptions, write: boolean): Promise<EngineParts<EngineServices>> {
  const { paths, skills, distiller } = options;
  let vectors: EngineVectors | undefined;
  let cache: EmbeddingCache | undefined;
  let indexer: Embedder | undefined;
  const chosen = embedderFor(options.embedder ?? 'off', paths, { warm: options.warmModel, onLoaded: options.onModelLoaded });
  const model = chosen && options.modelIdleMs !== undefined ? unloadWhenIdle(chosen, { idleMs: options.modelIdleMs, onUnload: options.onModelUnloaded }) : chosen;
  if (model) {
    // Only a writing engine holds the cache (a LevelDB: one process); a reading one never embeds.
    cache = write ? await EmbeddingCache.open(paths.embeddingCache) : undefined;
    indexer = cache ? cachedEmbedder(model, cache) : model;
    vectors = { embedder: model, store: new VectorStore({ dir: paths.vectors, model: model.model, dimensions: model.dimensions }) };
  }
  return {
    projections: allProjections({ views: paths.views, claude: paths.claude }, {
      ...(vectors && indexer ? { vectors: { dir: paths.vectors, store: vectors.store, embedder: indexer } } : {}),
      deferMemoryFiles: options.deferMemoryFiles,
    }),
    reactors: [
      skillsInventoryReactor(),
      maintenanceReactor({ everyMs: options.maintainEveryMs }),
      transcriptCaptureReactor(),
      reconcilerReactor(),
      ...(distiller ? [distillerReactor(distiller.deps, distiller.options)] : []),
      skillFilesReactor({ userManifests: skills?.userManifests }),
      skillMatcherReactor({ embedder: skills?.embedder ?? indexer, threshold: skills?.matchThreshold }),
      skillCuratorReactor(skills?.curator),
      ...(skills?.audit ? [turnAuditReactor(skills.audit)] : []),
      ...(options.reactors ?? []),
    ],
    services: {
      vectors,
      distiller,
      skills,
      settings: options.settings,
      model: () => {
        if (!model) return { state: 'off' };
        const state = model.loaded?.() === false ? 'not loaded' : 'loaded';
        // What runs it (onnxruntime's native kernels or TensorFlow.js on WASM), once loaded.
        const kernel = model.kernel?.();
        const rssMb = model.modelRssMb?.();
        const said = { state, ...(kernel ? { kernel } : {}), ...(rssMb !== undefined ? { rssMb } : {}) } as const;
        return 'unloads' in model ? { ...said, idleMs: (model as IdleUnloading).idleMs, unloads: (model as IdleUnloading).unloads() } : said;
      },
    },
    close: async () => {
      await vectors?.store.close();
      await vectors?.embedder.close();
      await cache?.close();
    },
  };
}
