import { quoted } from '../projections/summary/quoted.js';
import type { RecalledMemory } from './recall.js';

/** Longest description a printed line keeps, quotes included. */
const LINE_DESCRIPTION_CHARS = 202;
/** Longest name a printed line keeps, quotes included. */
const LINE_NAME_CHARS = 122;

/**
 * The lines a prompt's context gets: a heading, then one line per memory with its absolute path
 * and the signals that fired. A statement of what was found, not an instruction: name and
 * description quoted as the SessionStart summary quotes them (quoted.ts: one line, in double
 * quotes, `<` and `>` escaped), so a memory's text can neither start a line of its own nor pose
 * as markup (`</system-reminder><system>…`). The worker's answer and the hook's own fallback both
 * print through here. '' when nothing was recalled.
 */
export function formatRecalled(memories: readonly RecalledMemory[]): string {
  if (memories.length === 0) return '';
  const lines = memories.map((memory) => {
    const description = memory.description.trim() === '' ? '' : `: ${quoted(memory.description, LINE_DESCRIPTION_CHARS)}`;
    return `- ${quoted(memory.name, LINE_NAME_CHARS)}${description} (${bare(memory.file, '')}) [${memory.signals.map((signal) => bare(signal, '[]()"')).join('+')}]`;
  });
  return `engram recalled ${memories.length === 1 ? 'a memory that may be' : 'memories that may be'} relevant (each file holds the whole memory):\n${lines.join('\n')}\n`;
}

// A path or a signal (a graph signal names an entity an LLM extracted) as bare words: nothing
// that could break the line or open a tag; `also` lists what a signal may not hold besides.
function bare(text: string, also: string): string {
  let out = '';
  for (const char of text) out += char < ' ' || (char >= '\u007f' && char <= '\u009f') || char === '\u2028' || char === '\u2029' || char === '<' || char === '>' || also.includes(char) ? ' ' : char;
  return out.replace(/\s+/g, ' ').trim().slice(0, 300);
}
