import type { DistillAnswer } from '../../events/distill-events.js';
import type { DistillSession } from '../../projections/distill/distill-queue.js';

/** What the trace says a session did, as the distiller's prompt (and its record) puts it. */
export function sessionTrace(session: DistillSession): string {
  const lines = [
    `project: ${session.project}`,
    `prompts: ${session.prompts}, tool calls: ${session.toolCalls}${session.ended ? '' : ' (no SessionEnd: caught up after an hour idle)'}`,
  ];
  if (session.files.length > 0) lines.push(`files: ${session.files.join(', ')}`);
  if (session.commands.length > 0) lines.push(`commands: ${session.commands.join(' | ')}`);
  if (session.errors.length > 0) lines.push(`failures: ${session.errors.join(' | ')}`);
  return lines.join('\n');
}

/**
 * Without an LLM, the session still leaves an episode: what was worked on, from the trace alone
 * (files, commands, failures). No candidates: nothing is inferred without a model.
 */
export function traceEpisode(session: DistillSession, day: string): DistillAnswer {
  const base = session.project.split(/[\\/]/).filter(Boolean).pop() ?? session.project;
  const worked = session.files.length > 0 ? session.files.slice(-3).map((file) => file.split(/[\\/]/).pop()).join(', ') : `${session.toolCalls} tool calls`;
  const body = [
    `Session ${session.session} in ${session.project} on ${day}: ${session.prompts} prompts, ${session.toolCalls} tool calls.`,
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
