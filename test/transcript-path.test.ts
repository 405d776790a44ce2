import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureTranscript } from '../src/capture/capture-transcript.js';
import { drain, dumpLog, runHook, useTempHomes } from './support/temp-home.js';

// `transcript_path` comes from a hook's payload: outside input. It is read only when it resolves
// inside Claude Code's projects directory, never through a link that leads out (issue 19).
const home = useTempHomes();
const SECRET = 'outside-secret-text-that-must-never-be-stored';

function transcriptLine(text: string): string {
  return `${JSON.stringify({ type: 'user', sessionId: 's', timestamp: '2026-11-03T10:00:00.000Z', message: { role: 'user', content: text } })}\n`;
}

function layout() {
  const h = home();
  const projects = join(h.paths.claude, 'projects');
  const slug = join(projects, '-home-dev-src-app');
  mkdirSync(slug, { recursive: true });
  const outside = join(h.root, 'elsewhere');
  mkdirSync(outside, { recursive: true });
  const outsideFile = join(outside, 'other.jsonl');
  writeFileSync(outsideFile, transcriptLine(SECRET));
  const inside = join(slug, 'inside.jsonl');
  writeFileSync(inside, transcriptLine('the inside transcript text'));
  symlinkSync(outsideFile, join(slug, 'link-out.jsonl'));
  symlinkSync('/etc/shadow', join(slug, 'shadow.jsonl'));
  symlinkSync(inside, join(slug, 'link-in.jsonl'));
  return { h, projects, slug, outsideFile, inside };
}

describe('transcript paths', () => {
  it('reads a transcript inside the projects directory (through a link that stays inside too), and nothing outside', async () => {
    const { projects, slug, outsideFile, inside } = layout();
    const read = async (path: string) => captureTranscript(path, { projectsDir: projects });
    expect((await read(inside)).excerpt).toContain('the inside transcript text');
    expect((await read(join(slug, 'link-in.jsonl'))).excerpt).toContain('the inside transcript text');
    for (const path of [join(slug, 'link-out.jsonl'), join(slug, 'shadow.jsonl')]) {
      const capture = await read(path);
      expect(capture.excerpt).toBe('');
      expect(capture.notes.join('\n')).toContain('a link that leads out of Claude Code\'s projects directory');
      expect(JSON.stringify(capture)).not.toContain(SECRET);
    }
    const outside = await read(outsideFile);
    expect(outside.excerpt).toBe('');
    expect(outside.notes.join('\n')).toContain('outside Claude Code\'s projects directory');
    expect(JSON.stringify(outside)).not.toContain(SECRET);
    // Missing inside is missing, as before.
    expect((await read(join(slug, 'gone.jsonl'))).missing).toBe(true);
  });

  it('the worker records why it did not read, never what is there', async () => {
    const { h, slug, outsideFile } = layout();
    const paths = [outsideFile, join(slug, 'link-out.jsonl'), join(slug, 'shadow.jsonl')];
    for (const [i, transcript] of paths.entries()) {
      const result = await runHook('SessionEnd', { session_id: `sess-${i}`, cwd: '/home/dev/src/app', transcript_path: transcript, hook_event_name: 'SessionEnd', reason: 'other' }, h.env);
      expect(result.code).toBe(0);
    }
    await drain(h.env);
    const captured = (await dumpLog(h.env)).filter((event) => event.type === 'TranscriptCaptured');
    expect(captured).toHaveLength(3);
    for (const event of captured) {
      expect(event.data.excerpt).toBe('');
      expect(event.data.notes.join('\n')).toMatch(/not (followed, not )?read/);
    }
    expect(JSON.stringify(captured)).not.toContain(SECRET);
  }, 120_000);
});
