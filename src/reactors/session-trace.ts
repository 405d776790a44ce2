import type { DistillTraceSummary } from '../distill/distill-prompt.js';
import type { DistillAnswer } from '../events/distill-events.js';
import type { DistillSession } from '../projections/distill/distill-queue.js';

/** What the trace says a session did, as the distiller's prompt (and its record) puts it. */
export function sessionTrace(session: DistillSession): DistillTraceSummary {
  return {
    filesTouched: [...session.files],
    commands: [...session.commands],
    failures: [...session.errors],
    counts: { prompts: session.prompts, toolCalls: session.toolCalls, ended: session.ended ? 1 : 0 },
  };
}

/**
 * Without an LLM, the session still leaves an episode: what was worked on, from the trace alone
 * (files, commands, failures). No candidates: nothing is inferred without a model.
 */
export function traceEpisode(session: DistillSession, day: string): DistillAnswer {
  const base = session.project.split(/[\\/]/).filter(Boolean).pop() ?? session.project;
  // The whole session's counts: the since-last-distillation ones are 0 on a second pass.
  const prompts = session.totalPrompts ?? session.prompts;
  const toolCalls = session.totalToolCalls ?? session.toolCalls;
  const worked = session.files.length > 0 ? session.files.slice(-3).map((file) => file.split(/[\\/]/).pop()).join(', ') : `${toolCalls} tool calls`;
  const body = [
    `Session ${session.session} in ${session.project} on ${day}: ${prompts} prompts, ${toolCalls} tool calls.`,
    session.files.length > 0 ? `\nFiles:\n${session.files.map((file) => `- ${file}`).join('\n')}` : '',
    session.commands.length > 0 ? `\nCommands:\n${session.commands.map((command) => `- \`${command.replace(/`/g, "'")}\``).join('\n')}` : '',
    session.errors.length > 0 ? `\nFailures:\n${session.errors.map((error) => `- ${error}`).join('\n')}` : '',
  ].filter(Boolean).join('\n');
  return {
    episode: {
      name: `Session ${day} in ${base}`.slice(0, 200),
      description: `Worked on ${worked}${session.errors.length > 0 ? `; ${session.errors.length} failure(s)` : ''} (from the trace; no LLM)`.slice(0, 1000),
      body: body.slice(0, 8000),
    },
    candidates: [],
  };
}
