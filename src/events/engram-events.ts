import * as z from 'zod/mini';
import { defineEvent } from './define-event.js';

/** Events the worker's reactors append: what they observed of the world outside the log. */

export const SkillsInventoried = defineEvent({
  type: 'SkillsInventoried',
  schemaVersion: 1,
  summary: 'The skills installed for a project (user-wide and the project\'s own) changed.',
  data: z.object({
    skills: z.array(
      z.object({
        name: z.string().check(z.maxLength(200)),
        /** user: <claude>/skills; project: <cwd>/.claude/skills */
        scope: z.enum(['user', 'project']),
      }),
    ),
  }),
});

export const engramEvents = [SkillsInventoried] as const;
