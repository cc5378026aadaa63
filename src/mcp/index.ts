/** `specterm mcp`: the MCP server over the daemon's API (docs/mcp.md). */
export { createMcpServer, serveMcp, type McpServerOptions } from './server.js';
export { TOOLS, ToolRefusal, type McpCaller } from './tools.js';
export { HANDOFF_TOOL, TASK_TOOLS } from './delegation.js';
