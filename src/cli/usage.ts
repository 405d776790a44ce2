// The CLI's usage text, apart from the commands it describes: `engram --help` and
// `engram COMMAND --help` load this file and nothing of the commands (issue 22).

export const USAGE = `engram — long-term memory for Claude Code

  engram install [--settings PATH] [--claude-json PATH]
                                         add engram's hooks to Claude Code's settings.json and its MCP server at user scope
  engram uninstall [--settings PATH] [--claude-json PATH]
                                         remove exactly engram's hooks and MCP server; ENGRAM_HOME and memory files stay
  engram uninstall --purge [--yes]       also remove engram's own data (ENGRAM_HOME), after asking
  engram worker                          run the worker in the foreground
  engram worker --detach                 start the worker in the background
  engram worker --drain                  ingest, project and react until nothing is left, then exit
  engram worker status [--json]          whether it runs, the log, the spool, projections not up to date
  engram worker stop [--timeout SECONDS] stop the worker; exit 1 if it has not stopped in time (default 15)
  engram log dump                        every event, one JSON object a line
  engram log stats [--json]              counts by type, total, spool pending and rejected
  engram log verify [--json]             where the log is damaged, if it is (exit 1 when it is)
  engram log repair                      a new log of every readable event, the old one kept; rebuilds
  engram rebuild [--only NAME]...        drop projections and replay the log
  engram replay --until SEQ|ISO --out DIR
                                         the projections as of that point, written under DIR
  engram migrate [--dry-run] [--discard-old]
                                         run pending log migrations (or say what they would change)
  engram maintain [--now ISO] [--dry-run] [--network]
                                         the maintenance tick: decay, supersession, claims, hygiene
  engram import DIR [--project PATH | --global]
                                         an existing memory directory's memories, into the project's (default: here)
  engram reconcile [--project PATH]      record memory files changed, added or deleted by hand
  engram memories list|show|pin|unpin|forget|restore|reinforce
                                         the memories, and what a user decides about them
  engram distill --session ID            distill one session now (again, if it was)
  engram backfill [--since DATE] [--project PATH] [--dry-run] [--no-distill]
                                         adopt Claude Code's past transcripts and prompt history
  engram graph ENTITY [--project PATH] [--json]
                                         an entity: its type, aliases, relations and the memories that name it
  engram graph backfill [--project PATH] [--limit N]
                                         ask the LLM for the graphs of memories that have none
  engram routes [--project PATH] [--all] [--json]
  engram routes accept|decline ID        distilled proposals for CLAUDE.md and docs/knowledge/
  engram skills suggest [--project PATH] [--json]
                                         memories that could become skills: update which own skill, or a new one
  engram skills accept MEMORY --skill NAME | engram skills decline MEMORY
                                         record the answer (implemented_in: NAME, or declined) in the memory
  engram skills curate [--dry-run] [--now ISO]
                                         captured skills unused 30+ days (stale) or 90+ (archivable)
  engram query TEXT [--project PATH] [--limit K] [--all] [--json]
                                         what recall finds for a prompt (--all: the whole fused ranking)
  engram query --batch FILE --json       one JSON line {id, results} per line {id, text, project} of FILE
  engram mcp [--project PATH]            the MCP server over stdio: search, get (with provenance), remember, forget, timeline
  engram ui [--port N] [--open]          the local web viewer (127.0.0.1, a token per start): timeline, memories, recall, as of any seq
  engram config list|get KEY|set KEY VALUE|unset KEY
                                         the settings in ENGRAM_HOME/config.json (the environment overrides each)
  engram sync status [--json]            the sync with your other machines (docs/team-sync.md): connection, lag, last ack, last error
  engram team join URL | leave           share this project's memories (only those) with your team through the NATS server at URL
  engram doctor                          what is wrong, in plain words
  engram --version                       this engram's version and build

Settings: \`engram config list\` (docs/configuration.md); each has an ENGRAM_* variable that overrides it.
Environment only: ENGRAM_HOME (default ~/.engram), CLAUDE_CONFIG_DIR (default ~/.claude),
ENGRAM_NOW (pins the clock), ENGRAM_DISABLE=1 (hooks do nothing).
`;

export const MEMORIES_USAGE = `engram memories list [--project PATH] [--all] [--json]
engram memories show NAME [--history] [--project PATH]
engram memories pin|unpin|restore|reinforce NAME [--project PATH]
engram memories forget NAME [--reason TEXT] [--project PATH]`;

export const SKILLS_USAGE = `engram skills suggest [--project PATH] [--json]
engram skills accept MEMORY --skill NAME [--project PATH]
engram skills decline MEMORY [--project PATH]
engram skills curate [--dry-run] [--now ISO]`;

export const CONFIG_USAGE = `engram config list [--json]       every setting: its value, and whether it comes from the environment, config.json or the default
engram config get KEY             one setting's value
engram config set KEY VALUE       keep VALUE in config.json (checked first)
engram config unset KEY           remove KEY from config.json (back to the default)`;

/** The lines of USAGE (or a command's own usage) for one command; undefined for a command there is none of. */
export function usageOf(command: string): string | undefined {
  const own: Record<string, string> = { memories: MEMORIES_USAGE, skills: SKILLS_USAGE, config: CONFIG_USAGE };
  if (own[command]) return own[command];
  const entries: string[][] = [];
  for (const line of USAGE.split('\n')) {
    if (line.startsWith('  engram ')) entries.push([line]);
    else if (line.startsWith('      ') && entries.length > 0) entries.at(-1)!.push(line);
    else entries.push([]);
  }
  const mine = entries.filter((entry) => entry[0]?.startsWith(`  engram ${command} `) || entry[0] === `  engram ${command}` || entry[0]?.startsWith(`  engram ${command}  `));
  return mine.length === 0 ? undefined : mine.map((entry) => entry.join('\n')).join('\n');
}
