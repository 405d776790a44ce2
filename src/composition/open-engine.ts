import type { Clock } from '../clock.js';
import type { SettingsReport } from '../config/effective-settings.js';
import type { EngramPaths } from '../paths.js';
import { allProjections } from '../projections/all-projections.js';
import type { Embedder } from '../indexes/embedder.js';
import { embedderFor, type EmbedderChoice } from '../recall/embedders/embedder-choice.js';
import { cachedEmbedder, EmbeddingCache } from '../recall/embedding-cache.js';
import { VectorStore } from '../indexes/vector-store.js';
import { Engine, type EngineParts } from '../workers/engine/engine.js';
import type { IngestOptions } from '../workers/ingest/ingest.js';
import { distillerReactor, type DistillerDeps, type DistillerOptions } from '../workers/reactors/distiller.js';
import { maintenanceReactor } from '../workers/reactors/maintenance.js';
import { reconcilerReactor } from '../workers/reactors/reconciler.js';
import { skillCuratorReactor } from '../workers/reactors/skill-curator.js';
import { skillFilesReactor } from '../workers/reactors/skill-files.js';
import { skillMatcherReactor } from '../workers/reactors/skill-matcher.js';
import type { SkillsSetup } from '../workers/reactors/skills-from-env.js';
import { skillsInventoryReactor } from '../workers/reactors/skills-inventory.js';
import { transcriptCaptureReactor } from '../workers/reactors/transcript-capture.js';
import { turnAuditReactor } from '../workers/reactors/turn-audit.js';

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
    parts: ({ write }) => engineParts(options, write),
  });
}

async function engineParts(options: OpenEngineOptions, write: boolean): Promise<EngineParts<EngineServices>> {
  const { paths, skills, distiller } = options;
  let vectors: EngineVectors | undefined;
  let cache: EmbeddingCache | undefined;
  let indexer: Embedder | undefined;
  const model = embedderFor(options.embedder ?? 'off', paths);
  if (model) {
    // Only a writing engine holds the cache (a LevelDB: one process); a reading one never embeds.
    cache = write ? await EmbeddingCache.open(paths.embeddingCache) : undefined;
    indexer = cache ? cachedEmbedder(model, cache) : model;
    vectors = { embedder: model, store: new VectorStore({ dir: paths.vectors, model: model.model, dimensions: model.dimensions }) };
  }
  return {
    projections: allProjections({ views: paths.views, claude: paths.claude }, vectors && indexer ? { vectors: { dir: paths.vectors, store: vectors.store, embedder: indexer } } : {}),
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
    ],
    services: { vectors, distiller, skills, settings: options.settings },
    close: async () => {
      await vectors?.store.close();
      await vectors?.embedder.close();
      await cache?.close();
    },
  };
}
