import { describe, expect, it } from 'vitest';
import { projectSlug } from '../src/paths.js';

describe('projectSlug: Claude Code\'s directory name for a project', () => {
  it('turns every character outside [A-Za-z0-9] into a dash, one for one', () => {
    expect(projectSlug('/home/dev/my_project.v2')).toBe('-home-dev-my-project-v2');
    expect(projectSlug('C:\\Users\\alice\\OneDrive\\文档\\some project')).toBe('C--Users-alice-OneDrive----some-project');
  });

  it('keeps a path of up to 200 characters whole', () => {
    const path = `/${'a'.repeat(199)}`;
    expect(projectSlug(path)).toBe(`-${'a'.repeat(199)}`);
  });

  // The suffixes were computed by running the sanitizer shipped in @anthropic-ai/claude-agent-sdk
  // 0.3.332 (`Me` in core-ew5sfvfe.mjs) on these very paths: not by engram's code.
  it('shortens a longer path the way Claude Code does, so a 255-character cwd gets a name the file system takes', () => {
    const path = `/home/dev/${'deeply-nested/'.repeat(17)}project`;
    expect(path.length).toBe(255);
    const prefix = path.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200);
    expect(projectSlug(path)).toBe(`${prefix}-j40rvq`);
    expect(projectSlug(`${path}-a`)).toBe(`${prefix}-unhyy6`);
    expect(projectSlug(`${path}-b`)).toBe(`${prefix}-unhyy7`);
    expect(projectSlug(path).length).toBeLessThan(255);
  });
});
