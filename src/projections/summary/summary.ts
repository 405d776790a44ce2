import type { FileOp } from '../file-ops.js';
import { memoriesProjector } from '../memories/memories.js';
import { entriesOf, typedRow, type MemoriesRow, type ScanRows } from '../memories/memories-rows.js';
import { defineProjector } from '../projector.js';
import { summaryViewPath } from '../view-paths.js';
import { renderSummary } from './render-summary.js';

/** Bump when the summary block changes for the same rows. */
const RENDERING_VERSION = 1;

/**
 * The summary: the memories projection's own rows (its `evolve`, so which memory is what is
 * decided in one place) under a lane of its own, whose sink writes each memory directory's
 * summary block to `views/summary/`. Its version follows both the rows and the rendering, so a
 * change to either rebuilds it.
 */
export const summaryProjector = defineProjector<MemoriesRow>({
  ...memoriesProjector,
  name: 'summary',
  projectorVersion: memoriesProjector.projectorVersion * 1000 + RENDERING_VERSION,
});

/** `views/summary/<project slug>.md` (or `global.md`) for directory rows; memory rows have no file here. */
export async function materializeSummary(key: string, row: MemoriesRow, scan: ScanRows): Promise<FileOp[]> {
  const typed = typedRow(key, row);
  if (typed?.kind !== 'dir' || !typed.row) return [];
  const dir = typed.row;
  return [{ kind: 'write', path: summaryViewPath(dir.project), content: renderSummary(dir, await entriesOf(scan, dir.dir)) }];
}
