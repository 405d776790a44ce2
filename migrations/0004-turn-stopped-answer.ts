import * as z from 'zod/mini';
import { defineUpcaster } from '../src/events/define-upcaster.js';

/**
 * TurnStopped v1 kept only the answer's length; v2 also keeps its start, for the transcript
 * capture (the transcript file lags the Stop hook). What v1 never kept cannot be recovered: its
 * answer is ''.
 */
export const turnStoppedAnswer = defineUpcaster({
  id: '0004-turn-stopped-answer',
  type: 'TurnStopped',
  fromSchemaVersion: 1,
  from: z.object({ stopHookActive: z.boolean(), answerChars: z.int().check(z.nonnegative()) }),
  upcast: ({ stopHookActive, answerChars }) => ({ stopHookActive, answerChars, answer: '' }),
});
