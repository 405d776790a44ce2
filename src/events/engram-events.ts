import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

/** Events the worker's reactors append: what they observed of the world outside the log. */

export const SkillsInventoried = defineEvent({
  type: 'SkillsInventoried',
  schemaVersion: 1,
  summary: 'The skills installed for a project (user-wide and the project\'s own) changed.',
  data: () => z.object({
    skills: z.array(
      z.object({
        name: z.string().check(z.maxLength(200)),
        /** user: <claude>/skills; project: <cwd>/.claude/skills */
        scope: z.enum(['user', 'project']),
      }),
    ),
  }),
});

/**
 * Hook events that never reached the spool: the hook could not write its file (a full disk, an
 * I/O error, a read-only file system), removed what it had begun and left an empty marker whose
 * name says when, which hook and why (see hooks/lost-marker.ts). The worker counts those markers
 * into this event, one per reason and batch, so the loss is on record and `engram doctor` and the
 * session summary can say it. The events themselves are gone: only their number is known.
 */
export const HookWritesFailed = defineEvent({
  type: 'HookWritesFailed',
  schemaVersion: 1,
  summary: 'Hook events that could not be written to the spool (full disk, I/O error, read-only): how many, when and why.',
  data: () => z.object({
    count: z.int().check(z.positive()),
    firstAt: z.iso.datetime(),
    lastAt: z.iso.datetime(),
    /** The error code the write failed with (ENOSPC, EIO, EROFS, EDQUOT…), or UNKNOWN. */
    reason: z.string().check(z.maxLength(40)),
    /** The hooks that lost them (Claude Code's names), sorted. */
    hooks: z.array(z.string().check(z.maxLength(40))).check(z.maxLength(20)),
  }),
});

export const engramEvents = [SkillsInventoried, HookWritesFailed] as const;
