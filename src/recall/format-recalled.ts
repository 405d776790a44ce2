import type { RecalledMemory } from './recall.js';

/** Longest description a printed line keeps. */
const LINE_DESCRIPTION_CHARS = 200;

/**
 * The lines a prompt's context gets: a heading, then one line per memory with its absolute path
 * and the signals that fired. A statement of what was found, not an instruction, each field on
 * one line: a memory's text cannot start a line of its own. '' when nothing was recalled.
 */
export function formatRecalled(memories: readonly RecalledMemory[]): string {
  if (memories.length === 0) return '';
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  const lines = memories.map((memory) => {
    const description = flat(memory.description).slice(0, LINE_DESCRIPTION_CHARS);
    return `- ${flat(memory.name)}${description ? `: ${description}` : ''} (${memory.file}) [${memory.signals.join('+')}]`;
  });
  return `engram recalled ${memories.length === 1 ? 'a memory that may be' : 'memories that may be'} relevant (each file holds the whole memory):\n${lines.join('\n')}\n`;
}
