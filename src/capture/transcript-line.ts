import * as z from 'zod/mini';

/**
 * One line of a Claude Code transcript (`<config>/projects/<slug>/<session>.jsonl`), as far as
 * the capture reads it. Loose objects throughout: the format grows with each release, and a field
 * this does not know is no reason to drop a line. Lines of other types (`summary`,
 * `file-history-snapshot`, `progress`, `queue-operation`…) only need their `type`.
 */
const block = z.looseObject({
  /** text | tool_use | tool_result | thinking | redacted_thinking | image … */
  type: z.string(),
  text: z.optional(z.unknown()),
});

export const transcriptMessage = z.looseObject({
  role: z.optional(z.string()),
  /** `<synthetic>` on lines Claude Code made up itself (an interrupted or failed answer). */
  model: z.optional(z.string()),
  content: z.union([z.string(), z.array(block)]),
});

export const transcriptLine = z.looseObject({
  type: z.string(),
  uuid: z.optional(z.string()),
  parentUuid: z.optional(z.nullable(z.string())),
  sessionId: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  /** A subagent's line written inline into the main transcript (older versions). */
  isSidechain: z.optional(z.boolean()),
  /** Lines Claude Code adds for itself (caveats, command echoes), not said by anyone. */
  isMeta: z.optional(z.boolean()),
  /** The user line after a compaction boundary, holding the summary of what came before. */
  isCompactSummary: z.optional(z.boolean()),
  /** An assistant line Claude Code wrote itself for a failed API call ("API Error: …"). */
  isApiErrorMessage: z.optional(z.boolean()),
  /** On `system` lines: compact_boundary, api_error, local_command, stop_hook_summary … */
  subtype: z.optional(z.string()),
  message: z.optional(z.unknown()),
});

export type TranscriptLine = z.infer<typeof transcriptLine>;
export type TranscriptMessage = z.infer<typeof transcriptMessage>;

/**
 * The text said in a message: string content as it is, `text` blocks joined by a blank line;
 * tool calls, tool results, thinking and images are not text and are left out.
 */
export function messageText(message: TranscriptMessage): string {
  if (typeof message.content === 'string') return message.content;
  const texts: string[] = [];
  for (const item of message.content) {
    if (item.type === 'text' && typeof item.text === 'string' && item.text.length > 0) texts.push(item.text);
  }
  return texts.join('\n\n');
}
