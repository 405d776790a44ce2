/**
 * The layout of a summary file (`views/summary/<slug>.md`), shared by the summary projection that
 * writes it and the SessionStart hook that reads it. Imports nothing: the hook bundles it.
 *
 * A file is a `#` title and a line of when it was scored (for people; the hook skips them), then
 * sections in this order, each `## <name>` followed by `- ` items, one memory or note a line.
 * Memory text only ever appears quoted inside an item, so no memory can open a section.
 */
export const SUMMARY_SECTIONS = ['Preferences', 'Procedural', 'Facts', 'Recent episodes', 'Notes'] as const;

export type SummarySection = (typeof SUMMARY_SECTIONS)[number];

/** The footer: re-verification, near-duplicates, archived and provisional memories. */
export const NOTES_SECTION: SummarySection = 'Notes';

export const SECTION_PREFIX = '## ';
export const ITEM_PREFIX = '- ';

/**
 * The most one summary file holds, in bytes (never fewer than its characters). The hook prints a
 * project's file and the global one together, each item of the latter marked `(global)`: both
 * at their cap stay well under the 10,000 characters of hook output Claude Code keeps.
 */
export const SUMMARY_FILE_BYTES = 4000;
