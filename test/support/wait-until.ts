import { readFileSync } from 'node:fs';

/**
 * Polls `test` until it holds or `timeoutMs` passes (generous by default: two cores are shared
 * by every test process). Resolves whether it held, so the assertion says what was expected.
 * `everyMs` apart: a test that asks a process (a worker's status) each time asks less often.
 */
export async function waitUntil(test: () => boolean | Promise<boolean>, timeoutMs = 60_000, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Whether a process has exited (a zombie no one reaped counts as exited: it runs nothing). */
export function processGone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === '';
  } catch {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}
