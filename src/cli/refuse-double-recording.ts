import { sep } from 'node:path';
import { EngramError } from '../errors.js';
import { activeEngramPlugins, type DoubleRecordingOptions } from './double-recording.js';

/**
 * Before `engram install` writes settings hooks: refuses (DOUBLE_RECORDING) while engram's plugin
 * is installed and enabled in Claude Code, since both would record every event. The other order
 * (the plugin installed over settings hooks) is the plugin hooks' to handle: they stand down.
 * Also warns when the hooks would point into npx's cache, which npm may clear.
 */
export async function refuseDoubleRecording(options: DoubleRecordingOptions, hooksDir: string, stderr: NodeJS.WritableStream): Promise<void> {
  const active = await activeEngramPlugins(options);
  if (active.length > 0) {
    throw new EngramError(
      'DOUBLE_RECORDING',
      `engram's plugin is enabled in Claude Code (${active.join(', ')}): its hooks already record every session, and settings hooks would record each event twice. ` +
        `Use the plugin, or \`claude plugin uninstall ${active[0]!.split(' ')[0]}\` first and run \`engram install\` again`,
    );
  }
  if (hooksDir.includes(`${sep}_npx${sep}`)) {
    stderr.write(`warning: these hooks point into npx's cache (${hooksDir}), which npm may clear; \`npm install -g engram\` then \`engram install\` keeps them in place\n`);
  }
}
