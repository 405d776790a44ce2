import { z } from 'zod';
import { fixedClock } from '../clock.js';
import { EngramError } from '../errors.js';
import { renderScoreTable } from '../memories/scores.js';
import { maintain } from '../reactors/maintenance.js';
import { defineCommand } from './command.js';

/**
 * `engram maintain [--now ISO] [--dry-run] [--network]`: the maintenance tick, now. `--dry-run`
 * prints the score table and what the tick would do, and appends nothing.
 */
export const maintainCommand = defineCommand({
  name: 'maintain',
  access: 'write',
  args: z.object({ now: z.string().optional(), dryRun: z.boolean().default(false), network: z.boolean().default(false) }),
  async run(engine, args, output) {
    let clock = engine.clock;
    if (args.now !== undefined) {
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(args.now)) {
        throw new EngramError('USAGE', `--now takes a full ISO time with its zone, not ${JSON.stringify(args.now)}`);
      }
      clock = fixedClock(new Date(args.now));
    }
    await engine.runner.catchUp();
    const plan = await maintain(engine.runner, clock, { network: args.network });
    if (!plan) {
      await output.out('no memories yet: nothing to maintain\n');
      return 0;
    }
    const verb = args.dryRun ? 'would ' : '';
    // "Nothing" would be untrue beside the events a tick records anyway (scores, the tick itself).
    const report = plan.actions.length > 0 ? plan.actions.map((action) => `${verb}${action}`).join('\n') : `${verb}change no memory`;
    if (args.dryRun) {
      await output.out(`${renderScoreTable(plan.rows)}\n${report}\nwould record ${plan.events.length} events; recorded none (--dry-run)\n`);
      return 0;
    }
    const appended = await engine.record(plan.events);
    await output.out(`${report}\nmaintained as of ${clock.now().toISOString()}: ${appended} events recorded${plan.actions.length === 0 && appended > 0 ? ' (scores and the tick itself)' : ''}\n`);
    return 0;
  },
});
