import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/atomic-write.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-atomic-'));
  dirs.push(dir);
  return dir;
};

describe('writeFileAtomic', () => {
  it('replaces a file whole, making its directory, and leaves no temp file', () => {
    const dir = scratch();
    const path = join(dir, 'a', 'b', 'file.md');
    writeFileAtomic(path, 'one');
    writeFileAtomic(path, Buffer.from('two'));
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['file.md']);
  });

  it('writes its temp file in tmpDir when given, making both directories, and leaves only the file', () => {
    const dir = scratch();
    const tmpDir = join(dir, '.tmp');
    const path = join(dir, 'trace', 'project.json');
    writeFileAtomic(path, 'one', { tmpDir });
    writeFileAtomic(path, 'two', { tmpDir });
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(join(dir, 'trace'))).toEqual(['project.json']);
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it('keeps the old content and removes its temp file when the write cannot finish', () => {
    if (process.getuid?.() === 0) {
      // root writes through read-only modes; a directory that vanishes fails the rename instead
      const dir = scratch();
      const path = join(dir, 'file.md');
      writeFileSync(path, 'old');
      expect(() => writeFileAtomic(join(dir, 'missing', 'file.md'), 'new', { makeDir: false })).toThrow();
      expect(readFileSync(path, 'utf8')).toBe('old');
      expect(readdirSync(dir)).toEqual(['file.md']);
      return;
    }
    const dir = scratch();
    const path = join(dir, 'file.md');
    writeFileSync(path, 'old');
    chmodSync(dir, 0o500);
    try {
      expect(() => writeFileAtomic(path, 'new')).toThrow();
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['file.md']);
  });

  it('sets the mode exactly, whatever the umask', () => {
    const dir = scratch();
    const path = join(dir, 'settings.json');
    const old = process.umask(0o077);
    try {
      writeFileAtomic(path, '{}', { mode: 0o644 });
    } finally {
      process.umask(old);
    }
    expect(statSync(path).mode & 0o777).toBe(0o644);
  });
});
