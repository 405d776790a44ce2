import { countsProjector } from './counts.js';
import { distillQueueProjector } from './distill/distill-queue.js';
import { materializeMemories, memoryTakenHashes } from './memories/materialize-memories.js';
import { memoriesProjector } from './memories/memories.js';
import { FileSink } from './file-sink.js';
import { graphProjector, materializeGraph } from './graph/graph.js';
import { liveSessionsProjector } from './live-sessions.js';
import { lostWritesProjector, materializeLostWrites } from './lost-writes.js';
import { rowsOnlySink, type Projection } from './projector.js';
import { provenanceProjector } from './provenance/provenance.js';
import { materializeSessions, sessionsProjector } from './sessions.js';
import { materializeStats, statsProjector } from './stats.js';
import { materializeRecallIndex, recallIndexProjector } from './recall/recall-index.js';
import { materializeRecalledInSession, recalledInSessionProjector } from './recall/recalled-in-session.js';
import { materializeSummary, summaryProjector } from './summary/summary.js';
import { materializeTrace, traceProjector } from './trace.js';
import { vectorsProjection, type VectorsSetup } from './vectors/vectors.js';
import { materializeSkillSuggestions, skillSuggestionsProjector } from './skills/skill-suggestions.js';

export interface ProjectionRoots {
  /** Views that are not memory files: ENGRAM_HOME/views. */
  views: string;
  /** Claude Code's config directory, where memory directories live. */
  claude: string;
}

/**
 * Every projection of this build, with sinks writing under these roots; the vectors projection
 * only when it is given an embedder (it is the one projection that needs a model).
 */
export function allProjections(roots: ProjectionRoots, options: { vectors?: VectorsSetup; deferMemoryFiles?: boolean } = {}): Projection[] {
  // A whole rebuild writes Claude Code's memory directories only once its state is complete (FileSinkOptions.deferred).
  const deferred = options.deferMemoryFiles ?? false;
  const projections = [
    { projector: sessionsProjector(), sink: new FileSink({ root: roots.views, materialize: materializeSessions, ownedDirs: ['sessions'], shared: false, durable: false }) },
    { projector: traceProjector(), sink: new FileSink({ root: roots.views, materialize: materializeTrace, ownedDirs: ['trace'], shared: false, durable: false }) },
    { projector: statsProjector(), sink: new FileSink({ root: roots.claude, materialize: materializeStats, indexWriter: 'stats', deferred }) },
    { projector: countsProjector(), sink: rowsOnlySink },
    { projector: memoriesProjector, sink: new FileSink({ root: roots.claude, materialize: materializeMemories, takenHashes: memoryTakenHashes, indexWriter: 'memories', indexBefore: ['stats'], deferred }) },
    { projector: distillQueueProjector(), sink: rowsOnlySink },
    { projector: summaryProjector, sink: new FileSink({ root: roots.views, materialize: materializeSummary, ownedDirs: ['summary'], shared: false, durable: false }) },
    { projector: recallIndexProjector, sink: new FileSink({ root: roots.views, materialize: materializeRecallIndex, ownedDirs: ['recall'], shared: false, durable: false }) },
    { projector: recalledInSessionProjector, sink: new FileSink({ root: roots.views, materialize: materializeRecalledInSession, ownedDirs: ['recalled'], shared: false, durable: false }) },
    { projector: graphProjector, sink: new FileSink({ root: roots.views, materialize: materializeGraph, ownedDirs: ['graph'], shared: false, durable: false }) },
    { projector: provenanceProjector, sink: rowsOnlySink },
    { projector: liveSessionsProjector(), sink: rowsOnlySink },
    { projector: skillSuggestionsProjector, sink: new FileSink({ root: roots.views, materialize: materializeSkillSuggestions, ownedDirs: ['skills'], shared: false, durable: false }) },
    { projector: lostWritesProjector, sink: new FileSink({ root: roots.views, materialize: materializeLostWrites, ownedDirs: ['lost'], shared: false, durable: false }) },
    ...(options.vectors ? [vectorsProjection(options.vectors)] : []),
  ];
  return projections as unknown as Projection[];
}
