import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/events/envelope.js';
import { knownDefinitions } from '../src/events/catalog.js';
import { newEventId } from '../src/events/event-id.js';
import { writeSpoolFile } from '../src/hooks/write-spool-file.js';
import { projectMemoryDir } from '../src/paths.js';
import { normaliseRemote, teamProject } from '../src/sync/project-identity.js';
import { assertShareable, shareableIn } from '../src/sync/shareable-events.js';
import { syncFolder } from '../src/sync/sync-settings.js';
import { readSyncStatus } from '../src/sync/sync-status.js';
import { natsServerMissing, startNatsServer, type NatsServer } from './support/nats-server.js';
import { cliHere, dumpLog, useTempHomes, walkFiles, type TempHome } from './support/temp-home.js';
import { waitUntil } from './support/wait-until.js';
import { projectionHarness } from './support/projection-harness.js';

const home = useTempHomes();
const servers: NatsServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Workers take seconds to start on two cores shared by every test process. */
const SLOW = 240_000;

/** A git checkout's directory whose remote `origin` is `remote` (only .git/config: all engram reads). */
function checkout(root: string, path: string, remote: string): string {
  const dir = join(root, path);
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  return dir;
}

let counter = 0;
function prompt(project: string, text: string, session = 'session-a'): Envelope {
  return {
    id: newEventId(Date.now() * 1000 + counter++, process.pid), type: 'PromptSubmitted', schemaVersion: 2,
    ts: new Date(Date.parse('2026-06-01T10:00:00Z') + counter * 1000).toISOString(), session, project,
    data: { prompt: text, chars: text.length, truncated: false },
  };
}

/** Every file under a directory, as bytes: LevelDB's tables and logs too. */
function everyFileHolds(root: string, marker: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) visit(path);
      else if (stat.isFile() && readFileSync(path).includes(marker)) found.push(path);
    }
  };
  visit(root);
  return found;
}

/** Every message the stream holds: its subject and event type. */
async function streamMessages(url: string): Promise<Array<{ subject: string; type: string; body: string }>> {
  const nc = await connect({ servers: url });
  try {
    const consumer = await jetstream(nc).consumers.get('ENGRAM', { deliver_policy: DeliverPolicy.All });
    const out: Array<{ subject: string; type: string; body: string }> = [];
    const messages = await consumer.fetch({ max_messages: 1000, expires: 2000 });
    for await (const message of messages) {
      out.push({ subject: message.subject, type: (JSON.parse(message.string()) as { type: string }).type, body: message.string() });
      if ((message.info.pending ?? 0) === 0) break;
    }
    return out;
  } finally {
    await nc.close();
  }
}

describe('the team scope: what may leave', () => {
  it('shares one event type, and the publish point refuses any other', () => {
    const shared = knownDefinitions.map((d) => d.type).filter((type) => shareableIn('team', type));
    expect(shared).toEqual(['MemoryShared']);
    expect(() => assertShareable('team', 'PromptSubmitted')).toThrow(/refused to publish a PromptSubmitted event: not shared in the team scope/);
    expect(() => assertShareable('team', 'TeamMemoryReceived')).toThrow(/not shared/);
    expect(() => assertShareable('team', 'MemoryShared')).not.toThrow();
  });

  it('names a project alike on every machine: its git remote normalised, or its .engram-project file', () => {
    const remote = 'github.com/Acme/payments-api';
    for (const url of ['git@github.com:Acme/payments-api.git', 'https://bob@GitHub.com/Acme/payments-api.git', 'ssh://git@github.com:22/Acme/payments-api', 'https://github.com/Acme/payments-api/']) {
      expect(normaliseRemote(url)).toBe(remote);
    }
    const root = mkdtempSync(join(tmpdir(), 'engram-team-id-'));
    dirs.push(root);
    const [a, b] = [checkout(root, 'alice/src/payments-api', 'git@github.com:Acme/payments-api.git'), checkout(root, 'bob/work/payments', 'https://github.com/Acme/payments-api')];
    expect(teamProject(a).id).toBe(remote);
    expect(teamProject(a).token).toBe(teamProject(b).token);
    expect(teamProject(a).token).not.toContain('payments');
    writeFileSync(join(b, '.engram-project'), 'acme/payments\n');
    expect(teamProject(b).id).toBe('acme/payments');
    const bare = join(root, 'no-remote');
    mkdirSync(bare);
    expect(() => teamProject(bare)).toThrow(/no git remote `origin` and no .engram-project file/);
  });
});

describe("a teammate's memory, as this machine folds it", () => {
  it('arrives provisional and theirs, follows their changes except what this user edited, and is archived when they archive it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'engram-team-fold-'));
    dirs.push(root);
    const h = await projectionHarness(root);
    const project = '/home/bob/work/payments';
    const memory = { projectId: 'github.com/Acme/payments-api', memoryId: 'correction:evt-a-1', name: 'Integration tests hit the real database', description: 'not mocks', type: 'feedback', body: 'integration tests must hit the real database\n' };
    const received = (n: number, data: Record<string, unknown>): Envelope => ({
      id: `team-received:${n}0000000`, type: 'TeamMemoryReceived', schemaVersion: 1, ts: `2026-06-0${n}T10:00:00.000Z`, session: '', project,
      data: { ...memory, state: 'active', from: 'alice', sharedEvent: `shared:${n}00000000`, ...data },
    });
    const edit: Envelope = {
      id: 'evt-b-edit-000001', type: 'MemoryEdited', schemaVersion: 1, ts: '2026-06-02T12:00:00.000Z', session: '', project,
      data: { memoryId: 'team:alice:correction:evt-a-1', by: 'hand', name: memory.name, description: memory.description, type: 'feedback', body: 'bob says: the staging database\n', changed: ['body'] },
    };
    await h.log.append([received(1, {})]);
    await (await h.runner()).catchUp();
    const file = () => Object.entries(h.snapshot()).filter(([path]) => /integration-tests-hit/.test(path));
    expect(file()).toHaveLength(1);
    expect(file()[0]![1]).toMatch(/status: provisional/);
    expect(file()[0]![1]).toMatch(/shared_by: alice/);
    expect(file()[0]![1]).toMatch(/memory_id: team:alice:correction:evt-a-1/);
    await h.log.append([edit, received(3, { description: 'never mocks', body: 'alice: the real one\n' })]);
    await (await h.runner()).catchUp();
    expect(file()[0]![1]).toMatch(/description: never mocks/);
    expect(file()[0]![1]).toMatch(/bob says: the staging database/);
    await h.log.append([received(4, { state: 'archived' })]);
    await (await h.runner()).catchUp();
    expect(file().map(([path]) => path)).toEqual([expect.stringMatching(/_archive\/integration-tests-hit/)]);
    await h.close();
  });
});

describe.skipIf(natsServerMissing)(`team sync through a real nats-server${natsServerMissing ? ` (skipped: ${natsServerMissing})` : ''}`, () => {
  it('a correction on A in the opted-in project reaches B as a provisional memory from alice; no prompt, path or other project leaves', async () => {
    const nats = await server();
    const root = mkdtempSync(join(tmpdir(), 'engram-team-'));
    dirs.push(root);
    const projectA = checkout(root, 'alice/src/payments-api', 'git@github.com:Acme/payments-api.git');
    const otherA = checkout(root, 'alice/src/secret-prototype', 'git@github.com:alice/secret-prototype.git');
    const projectB = checkout(root, 'bob/work/payments', 'https://github.com/Acme/payments-api');
    const [a, b] = [machine('alice'), machine('bob')];
    for (const [m, dir] of [[a, projectA], [b, projectB]] as const) {
      const joined = await cliHere(['team', 'join', nats.url, '--project', dir], m.env);
      expect(joined.code, joined.stderr).toBe(0);
      expect(joined.stdout).toMatch(/shares its memories with the team as github.com\/Acme\/payments-api/);
    }
    // Side by side: each start is mostly the worker's own imports and log open, on two cores.
    await Promise.all([startWorker(a), startWorker(b)]);
    const PROMPT_MARKER = 'QUOKKA-PROMPT-7731';
    const OTHER_MARKER = 'WOMBAT-LESSON-5519';
    writeSpoolFile(a.paths, prompt(projectA, `please look at the ${PROMPT_MARKER} invoices module`));
    writeSpoolFile(a.paths, prompt(projectA, 'No, I told you: integration tests must hit the real database, not mocks'));
    writeSpoolFile(a.paths, prompt(otherA, `from now on the ${OTHER_MARKER} service is deployed by hand`));
    const memoryDirB = join(b.paths.claude, projectMemoryDir(projectB));
    const lessonOnB = () => walkFilesOrEmpty(memoryDirB).find(([path]) => /real-database/.test(path));
    expect(await waitUntil(() => lessonOnB() !== undefined, 120_000)).toBe(true);
    const [, content] = lessonOnB()!;
    expect(content).toMatch(/integration tests must hit the real database/i);
    expect(content).toMatch(/status: provisional/);
    expect(content).toMatch(/shared_by: alice/);
    // Provisional: not in B's MEMORY.md until bob takes it up.
    expect(walkFilesOrEmpty(memoryDirB).find(([path]) => path.endsWith('MEMORY.md'))?.[1] ?? '').not.toMatch(/real-database/);

    // The stream holds A's shared memory and nothing else: one event type, one project's subject.
    expect(await waitUntil(() => (readSyncStatus(syncFolder(a.paths))?.bySubject ? true : false), 30_000)).toBe(true);
    const held = await streamMessages(nats.url);
    expect(held.length).toBeGreaterThan(0);
    expect(new Set(held.map((m) => m.type))).toEqual(new Set(['MemoryShared']));
    expect(new Set(held.map((m) => m.subject))).toEqual(new Set([`engram.team.${teamProject(projectA).token}`]));
    for (const m of held) {
      expect(m.body).not.toContain(PROMPT_MARKER);
      expect(m.body).not.toContain(OTHER_MARKER);
      expect(m.body).not.toContain(root);
      expect(m.body).not.toContain('session-a');
    }

    // Nothing of A's prompt, other project or paths anywhere on B: its log, nor any byte of its files
    // (the search does find what did come: the lesson's own words).
    expect(everyFileHolds(b.root, 'integration tests must hit the real database').length).toBeGreaterThan(0);
    const eventsB = await dumpLog(b.env);
    const logB = JSON.stringify(eventsB);
    for (const marker of [PROMPT_MARKER, OTHER_MARKER, projectA, otherA]) {
      expect(logB).not.toContain(marker);
      expect(everyFileHolds(b.root, marker)).toEqual([]);
    }
    const received = eventsB.filter((e) => e.type === 'TeamMemoryReceived');
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((e) => e.project === projectB && e.data.from === 'alice')).toBe(true);
    expect(eventsB.some((e) => e.type === 'PromptSubmitted')).toBe(false);

    // What was shared, per scope: A's status names the team project and what it sent.
    const shown = await cliHere(['sync', 'status'], a.env);
    expect(shown.stdout).toMatch(/sync: team scope, as alice/);
    expect(shown.stdout).toMatch(/team project github.com\/Acme\/payments-api \(.*payments-api\): [1-9]\d* memory states shared/);

    // A forget on A reaches B: the teammate's memory is archived there too.
    const memoryId = (await dumpLog(a.env)).find((e) => e.type === 'MemoryShared')!.data.memoryId as string;
    const forget: Envelope = { id: newEventId(Date.now() * 1000 + counter++, process.pid), type: 'MemoryForgotten', schemaVersion: 1, ts: '2026-06-01T11:00:00.000Z', session: '', project: projectA, data: { memoryId, reason: 'wrong' } };
    writeSpoolFile(a.paths, forget);
    expect(await waitUntil(() => walkFilesOrEmpty(memoryDirB).some(([path]) => /_archive\/.*real-database/.test(path)), 120_000)).toBe(true);
  }, SLOW);

  function machine(user: string): TempHome {
    return home({ ENGRAM_SYNC_USER: user, ENGRAM_WORKER_IDLE_MS: '600000' });
  }

  async function server(): Promise<NatsServer> {
    const s = await startNatsServer();
    servers.push(s);
    return s;
  }

  async function startWorker(m: TempHome): Promise<void> {
    const result = await cliHere(['worker', '--detach'], m.env);
    if (result.code !== 0) throw new Error(`worker did not start: ${result.stderr}`);
  }
});

/** The files of a memory directory as they stand (temporary files of a write in progress left out); none yet: empty. */
function walkFilesOrEmpty(dir: string): Array<[string, string]> {
  for (;;) {
    try {
      return Object.entries(walkFiles(dir)).filter(([path]) => !/\/\.engram-[^/]*\.tmp$/.test(path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (!statSync(dir, { throwIfNoEntry: false })) return [];
    }
  }
}
