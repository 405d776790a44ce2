import { runPluginMcp } from './plugin-mcp.js';

// plugin/bin/mcp.cjs: what the plugin manifest runs for engram's MCP server.
void runPluginMcp().then((code) => process.exit(code));
