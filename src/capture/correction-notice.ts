import type { Correction } from './correction-detector.js';

/**
 * The one line the UserPromptSubmit hook adds to the agent's context when a prompt was a
 * correction. A statement of fact, not an order (imperative text in context can trip
 * prompt-injection defences), with the lesson quoted as data: cleanLesson has already taken out
 * double quotes, line breaks and markup, so the quote cannot be closed or escaped from inside.
 */
export function correctionNotice(correction: Correction, logBroken = false): string {
  const what = correction.type === 'user' ? 'a fact about the user' : 'a lesson';
  const where = correction.scope === 'global' ? 'all projects' : 'this project';
  // A log known damaged takes nothing in until repaired: the event waits in the spool, not in memory.
  const fate = logBroken ? 'kept in the spool, not yet saved: engram\'s log needs repair, see `engram doctor`' : 'saved to memory';
  return `engram noted ${what} for ${where}: "${correction.lesson}" (${fate}).`;
}
