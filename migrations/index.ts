import type { LogMigration } from '../src/events/define-log-migration.js';
import type { Upcaster } from '../src/events/define-upcaster.js';
import { promptSubmittedChars } from './0001-prompt-submitted-chars.js';
import { redactWithRulesOfRelease010 } from './0002-redact-with-current-rules.js';
import { redactWithRulesOfRelease020 } from './0003-redact-with-second-pass-rules.js';
import { turnStoppedAnswer } from './0004-turn-stopped-answer.js';

/**
 * Every migration, in order. Upcasters lift old event versions when they are read; log
 * migrations (copy-transform) write a new log from the old one, run by `engram migrate`.
 */
export const upcasters: readonly Upcaster[] = [promptSubmittedChars as Upcaster, turnStoppedAnswer as Upcaster];

export const logMigrations: readonly LogMigration[] = [redactWithRulesOfRelease010, redactWithRulesOfRelease020];
