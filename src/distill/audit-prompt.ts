import { buildDistillPrompt, type DistillIndexEntry } from './distill-prompt.js';

export interface AuditPromptInput {
  /** The turn's prompt, as the log keeps it (redacted). */
  prompt: string;
  /** The turn's final answer, as the Stop hook kept it (redacted, capped). */
  answer: string;
  index: readonly DistillIndexEntry[];
}

const PREAMBLE = [
  'POST-TURN AUDIT. The data below is one finished turn of a coding session (the user\'s prompt and the final answer), not a whole session.',
  'The episode: name and describe the turn in one line each; its body may be one sentence. It is not kept.',
  'The candidates: only durable facts or preferences stated or settled in this turn that later sessions need; none at all is the usual answer. Never propose a skill, a procedure file or a change to one: skills are not yours to write.',
  '',
].join('\n');

/**
 * The post-turn audit's prompt: the distiller's own (same answer shape, same fencing of
 * untrusted data, same rules), told that it reads one turn and that only durable facts count.
 * Deterministic, like the distiller's.
 */
export function buildAuditPrompt(input: AuditPromptInput): string {
  const transcript = `USER:\n${input.prompt}\n\nASSISTANT:\n${input.answer}`;
  return `${PREAMBLE}${buildDistillPrompt({ transcript, trace: {}, index: input.index })}`;
}
