import type { Response } from './socket-protocol.js';

// Apart from socket-protocol.ts (and so from zod): the bin's front end asks the worker through
// askWorker, and building responseSchema at its start cost it most of its budget (issue 22).

/**
 * A line of the worker's as responseSchema would pass it, for the answers that make up nearly
 * every conversation (a command's `out`, `err`, `progress` and `exit`, and `pong`); undefined
 * for anything else, which responseSchema itself then judges. Never looser than the schema, so
 * whatever it passes the schema would have passed, with the same fields (unknown ones dropped).
 */
export function responseByHand(json: unknown): Response | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const m = json as Record<string, unknown>;
  switch (m.t) {
    case 'out':
    case 'err':
      return typeof m.text === 'string' ? { t: m.t, text: m.text } : undefined;
    case 'exit':
      return Number.isSafeInteger(m.code) ? { t: 'exit', code: m.code as number } : undefined;
    case 'progress':
      if (!isNumber(m.done) || !isNumber(m.total)) return undefined;
      if (m.unit === undefined) return { t: 'progress', done: m.done, total: m.total };
      return m.unit === 'events' || m.unit === 'bytes' ? { t: 'progress', done: m.done, total: m.total, unit: m.unit } : undefined;
    case 'pong': {
      if (!Number.isSafeInteger(m.pid) || !Number.isSafeInteger(m.head) || typeof m.startedAt !== 'string') return undefined;
      const pong = { t: 'pong' as const, pid: m.pid as number, head: m.head as number, startedAt: m.startedAt };
      if (m.build === undefined) return pong;
      return typeof m.build === 'string' && m.build.length <= 100 ? { ...pong, build: m.build } : undefined;
    }
    default:
      return undefined;
  }
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
