import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { describeError } from '../errors.js';
import { engramMcpServer } from '../mcp/engram-mcp-server.js';
import { WorkerConnection } from '../mcp/worker-connection.js';
import type { EngramPaths } from '../paths.js';

/**
 * `engram mcp [--project PATH]`: the MCP server over stdio, until its client closes stdin.
 * stdout carries only the protocol; what goes wrong is said on stderr (Claude Code logs it).
 */
export async function mcpCli(args: string[], ctx: { paths: EngramPaths; env: NodeJS.ProcessEnv; stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  const { values } = parseArgs({ args, options: { project: { type: 'string' } } });
  const connection = new WorkerConnection(ctx.paths, ctx.env, { cliPath: fileURLToPath(new URL('./main.js', import.meta.url)) });
  const server = engramMcpServer(connection, { project: resolve(values.project ?? process.cwd()) });
  const transport = new StdioServerTransport(ctx.stdin as NodeJS.ReadStream, ctx.stdout as NodeJS.WriteStream);
  // A line that is not JSON-RPC is reported and skipped; the server carries on.
  transport.onerror = (err) => void ctx.stderr.write(`engram mcp: ${describeError(err)}\n`);
  const closed = new Promise<void>((done) => {
    ctx.stdin.once('end', done);
    ctx.stdin.once('close', done);
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
}
