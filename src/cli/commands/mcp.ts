/**
 * `specterm mcp`: the MCP server on stdio (docs/mcp.md). An agent CLI starts it
 * (`claude mcp add specterm -- specterm mcp`); it reaches the local daemon with the token in
 * SPECTERM_TOKEN (give it a scoped device token: `specterm token create --scope input`) or
 * the admin token file, and knows its caller's session from SPECTERM_SESSION_ID, which the
 * daemon sets for every agent it starts.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';

export const mcpCommand = defineCommand(
  {
    ...describeCommand('mcp'),
    positionals: [],
    flags: {},
    notes: [
      'Add it to an agent CLI, e.g. `claude mcp add specterm -- specterm mcp`. Set SPECTERM_TOKEN to a device token of the scope the agent may use (input to start and type, approve to answer prompts).',
      'Tools: list_sessions, start_session, stop_session, send_message, read_screen, list_approvals, answer_approval. An agent can never type into, stop or answer its own session.',
    ],
  },
  async (_args, io) => {
    const [{ DaemonClient }, { createMcpServer, serveMcp }, { StdioServerTransport }, { resolveRuntimeDir, resolveStateDir }, { packageVersion }] = await Promise.all([
      import('../../client/index.js'), import('../../mcp/index.js'), import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../fs/private-dirs.js'), import('../version.js'),
    ]);
    // Found per call: the daemon may start (or restart) after the agent started this server.
    const callerSession = io.env.SPECTERM_SESSION_ID || undefined;
    const client = { call: ((id: never, input: never) => DaemonClient.discover({ runtimeDir: resolveRuntimeDir(io.env), stateDir: resolveStateDir(io.env), env: io.env, callerSession }).call(id, input)) as never };
    const server = createMcpServer({
      client, caller: { sessionId: callerSession ?? null }, version: packageVersion(),
      log: (message) => io.stderr.write(`${message}\n`),
    });
    const { BoundedLines, MAX_MESSAGE_BYTES } = await import('../../mcp/bounded-lines.js');
    const input = process.stdin.pipe(new BoundedLines(MAX_MESSAGE_BYTES, (id, bytes) => {
      // Whole lines, like the SDK's own writes: a client reads one JSON-RPC message per line.
      process.stdout.write(JSON.stringify({
        jsonrpc: '2.0', id,
        error: { code: -32600, message: `the message is ${bytes} bytes; at most ${MAX_MESSAGE_BYTES} are read — send less (a message's text is at most 100,000 characters)` },
      }) + '\n');
    }));
    const transport = new StdioServerTransport(input);
    input.once('end', () => void transport.close());
    await serveMcp(server, transport);
    return 0;
  },
);
