/**
 * `specterm mcp`: a Model Context Protocol server (the official SDK) over stdio, so an agent
 * CLI can list, start and drive other sessions through the local daemon with a scoped token.
 * Every tool answers JSON text (and the same as structured content); a refusal — the daemon's
 * or this server's — is a tool error whose text starts with its stable code and says what to
 * fix, so the agent can correct itself. A caller that floods is slowed here before the daemon
 * sees it, so everyone else keeps being served.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientError } from '../client/index.js';
import { HANDOFF_TOOL, TASK_TOOLS } from './delegation.js';
import { TOOLS, ToolRefusal, type DaemonCaller, type McpCaller } from './tools.js';

export interface McpServerOptions {
  client: DaemonCaller;
  caller: McpCaller;
  version: string;
  /** Tool calls allowed at once, then per second (defaults 20 and 10). */
  burst?: number;
  perSecond?: number;
  now?: () => number;
  /** Where a failure no caller should see goes (stderr). */
  log?: (message: string) => void;
}

type ToolResult = { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

const refusal = (code: string, message: string): ToolResult => ({ content: [{ type: 'text', text: `${code}: ${message}` }], isError: true });

export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'specterm', version: options.version });
  const now = options.now ?? Date.now;
  const burst = options.burst ?? 20;
  const perMs = (options.perSecond ?? 10) / 1000;
  const bucket = { tokens: burst, at: now() };
  const take = (): number => {
    const t = now();
    bucket.tokens = Math.min(burst, bucket.tokens + (t - bucket.at) * perMs);
    bucket.at = t;
    if (bucket.tokens >= 1) { bucket.tokens -= 1; return 0; }
    return Math.ceil((1 - bucket.tokens) / perMs);
  };
  for (const def of [...TOOLS, HANDOFF_TOOL, ...TASK_TOOLS]) {
    server.registerTool(def.name, { description: def.description, inputSchema: def.input }, (async (input: never): Promise<ToolResult> => {
      const waitMs = take();
      if (waitMs > 0) return refusal('RATE_LIMITED', `too many tool calls; wait ${waitMs} ms and call again (at most ${options.perSecond ?? 10} a second)`);
      try {
        const answer = await def.run(input, { client: options.client, caller: options.caller });
        return { content: [{ type: 'text', text: JSON.stringify(answer, null, 2) }], structuredContent: answer as Record<string, unknown> };
      } catch (error) {
        if (error instanceof ToolRefusal || error instanceof ClientError) return refusal(error.code, error.message.replace(`${error.code}: `, ''));
        options.log?.(`specterm mcp: ${def.name} failed: ${(error as Error)?.stack ?? String(error)}`);
        return refusal('INTERNAL', `${def.name} failed inside specterm mcp; its stderr has the details. Retry, and report it if it persists.`);
      }
    }) as never);
  }
  return server;
}

/** Serves `server` on `transport` until the client goes away. */
export async function serveMcp(server: McpServer, transport: Transport): Promise<void> {
  const closed = new Promise<void>((resolve) => { transport.onclose = () => resolve(); });
  await server.connect(transport);
  await closed;
}
