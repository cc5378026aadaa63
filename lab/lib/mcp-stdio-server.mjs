#!/usr/bin/env node
/**
 * A tiny MCP server over stdio for the labs: newline-delimited JSON-RPC 2.0 (the MCP stdio
 * transport), answering `initialize`, `tools/list`, `tools/call` and `ping`, so an agent CLI
 * configured with it asks the person before calling one of its tools — the "MCP tool
 * permission" prompt every CLI has. Nothing here reaches the network or the file system; a call
 * answers with text naming the tool and its arguments.
 *
 * Tools: `deploy_preview {target}` (sounds consequential: CLIs ask before it) and
 * `lookup_ticket {id}` (read-only). Run: `node lab/lib/mcp-stdio-server.mjs`; configure the
 * CLI's MCP servers with `command: process.execPath, args: [this file]`. Every request is
 * appended to `$LAB_MCP_LOG` (one JSON line each) when set, so a lab can check the call happened
 * (or, after a denial, did not).
 */
import fs from 'node:fs';
import readline from 'node:readline';

export const LAB_MCP_SERVER_NAME = 'lab-tools';

export const LAB_MCP_TOOLS = [
  {
    name: 'deploy_preview',
    description: 'Deploy the current branch to a preview environment.',
    inputSchema: { type: 'object', properties: { target: { type: 'string', description: 'The environment, e.g. "staging".' } }, required: ['target'] },
  },
  {
    name: 'lookup_ticket',
    description: 'Read a ticket from the tracker by id.',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
];

/** The answer to one JSON-RPC message; null for a notification (no id). */
export function answer(message) {
  if (message === null || typeof message !== 'object' || message.jsonrpc !== '2.0') {
    return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'not a JSON-RPC 2.0 request' } };
  }
  if (message.id === undefined || message.id === null) return null;
  const ok = (result) => ({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return ok({
        protocolVersion: message.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: LAB_MCP_SERVER_NAME, version: '1.0.0' },
      });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({ tools: LAB_MCP_TOOLS });
    case 'tools/call': {
      const tool = LAB_MCP_TOOLS.find((t) => t.name === message.params?.name);
      if (!tool) return { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `unknown tool ${String(message.params?.name)}` } };
      return ok({ content: [{ type: 'text', text: `${tool.name} done: ${JSON.stringify(message.params?.arguments ?? {})}` }], isError: false });
    }
    case 'resources/list':
      return ok({ resources: [] });
    case 'prompts/list':
      return ok({ prompts: [] });
    default:
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `method not found: ${String(message.method)}` } };
  }
}

function serve() {
  const log = process.env.LAB_MCP_LOG;
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })}\n`);
      return;
    }
    if (log) fs.appendFileSync(log, `${JSON.stringify({ at: Date.now(), method: message?.method, params: message?.params })}\n`, { mode: 0o600 });
    const reply = answer(message);
    if (reply) process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
  lines.on('close', () => process.exit(0));
}

if (import.meta.url === `file://${process.argv[1]}`) serve();
