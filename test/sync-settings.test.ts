import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../src/errors.js';
import { shareableIn } from '../src/sync/shareable-events.js';
import { syncAuthenticator } from '../src/sync/sync-authenticator.js';
import { syncFromEnv } from '../src/sync/sync-settings.js';
import { syncSubject } from '../src/sync/sync-subject.js';

const paths = { home: '/nonexistent/engram-home' };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function file(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sync-creds-'));
  dirs.push(dir);
  const path = join(dir, 'creds');
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}
const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return describeError(err);
  }
  throw new Error('expected a failure');
};

describe('sync settings', () => {
  it('is off unless a scope is chosen, and then needs a URL', () => {
    expect(syncFromEnv({}, paths)).toBeUndefined();
    expect(syncFromEnv({ ENGRAM_SYNC_SCOPE: 'off', ENGRAM_SYNC_URL: 'nats://x:4222' }, paths)).toBeUndefined();
    expect(failure(() => syncFromEnv({ ENGRAM_SYNC_SCOPE: 'personal' }, paths))).toMatch(/SETTINGS_INVALID.*syncUrl is empty/);
    expect(failure(() => syncFromEnv({ ENGRAM_SYNC_SCOPE: 'team', ENGRAM_SYNC_URL: 'nats://x:4222' }, paths))).toMatch(/syncScope/);
    const settings = syncFromEnv({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: 'nats://a:4222, tls://b:4222', ENGRAM_SYNC_USER: 'alice' }, paths)!;
    expect(settings).toMatchObject({ scope: 'personal', servers: ['nats://a:4222', 'tls://b:4222'], tls: true, user: 'alice', dir: join(paths.home, 'sync') });
    expect(syncSubject(settings)).toBe('engram.personal.alice');
    expect(settings.replicas).toBe(1);
    expect(syncFromEnv({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: 'nats://a:4222', ENGRAM_SYNC_REPLICAS: '3' }, paths)!.replicas).toBe(3);
    expect(failure(() => syncFromEnv({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: 'nats://a:4222', ENGRAM_SYNC_REPLICAS: '7' }, paths))).toMatch(/syncReplicas must be a whole number from 1 to 5/);
  });

  it('refuses credentials in the URL without repeating them, and a subject token that is not one', () => {
    for (const url of ['nats://alice:hunter2@host:4222', 'alice:hunter2@host:4222', 'nats://s3cr3t-token@host:4222']) {
      const said = failure(() => syncFromEnv({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: url }, paths));
      expect(said).toMatch(/carries credentials.*syncCredentials/);
      expect(said).not.toMatch(/hunter2|s3cr3t/);
    }
    expect(failure(() => syncFromEnv({ ENGRAM_SYNC_SCOPE: 'personal', ENGRAM_SYNC_URL: 'nats://h:1', ENGRAM_SYNC_USER: 'a.b>' }, paths))).toMatch(/syncUser/);
  });

  it('reads a credentials file of each kind, and never quotes one it cannot use', () => {
    expect(syncAuthenticator(file('{"user":"alice","password":"hunter2"}'))).toBeTypeOf('function');
    expect(syncAuthenticator(file('{"token":"s3cr3t"}'))).toBeTypeOf('function');
    expect(syncAuthenticator(file(`SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY\n`))).toBeTypeOf('function');
    const said = failure(() => syncAuthenticator(file('password=hunter2 but not JSON')));
    expect(said).toMatch(/none of/);
    expect(said).not.toMatch(/hunter2/);
    expect(failure(() => syncAuthenticator('/nonexistent/creds'))).toMatch(/cannot be read \(ENOENT\)/);
  });

  it('shares in the personal scope everything but what describes this machine', () => {
    for (const type of ['PromptSubmitted', 'MemoryProposed', 'MemoryEdited', 'DistillCompleted', 'SessionEnded']) expect(shareableIn('personal', type)).toBe(true);
    for (const type of ['LogRepaired', 'HookWritesFailed', 'SkillsInventoried', 'SkillsScanned']) expect(shareableIn('personal', type)).toBe(false);
  });
});
