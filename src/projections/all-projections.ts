import { FileSink } from './file-sink.js';
import type { FileRoot } from './file-changes.js';
import type { Change, Projection } from './projector.js';
import { sessionsProjector } from './sessions.js';
import { statsProjector } from './stats.js';
import { traceProjector } from './trace.js';

/** Every projection of this build, with sinks writing under these roots. */
export function allProjections(roots: Record<FileRoot, string>): Projection<unknown, Change>[] {
  const projections = [
    { projector: sessionsProjector, sink: new FileSink({ roots, ownedViewDirs: ['sessions'] }) },
    { projector: traceProjector, sink: new FileSink({ roots, ownedViewDirs: ['trace'] }) },
    { projector: statsProjector, sink: new FileSink({ roots, ownedViewDirs: [] }) },
  ];
  return projections as unknown as Projection<unknown, Change>[];
}
