/**
 * The labs' stdio MCP server, as a real child process: it answers the MCP handshake, lists its
 * tools, runs a call, refuses an unknown tool and a malformed line with JSON-RPC errors, and logs
 * each request to $LAB_MCP_LOG.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve('lab/lib/mcp-stdio-server.mjs');

describe('the labs\' stdio MCP server', () => {
  it('speaks MCP over stdio: initialize, tools/list, tools/call, and errors', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-mcp-'));
    const log = path.join(dir, 'calls.jsonl');
    const child = spawn(process.execPath, [SERVER], { env: { ...process.env, LAB_MCP_LOG: log }, stdio: ['pipe', 'pipe', 'inherit'] });
    const replies: any[] = [];
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', (l) => replies.push(JSON.parse(l)));
    const send = (m: unknown) => child.stdin.write(typeof m === 'string' ? `${m}\n` : `${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deploy_preview', arguments: { target: 'staging' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope' } });
    send('{not json');
    await expect.poll(() => replies.length, { timeout: 10_000 }).toBe(5);
    child.stdin.end();
    await new Promise((r) => child.on('exit', r));
    expect(replies[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'lab-tools' } } });
    expect(replies[1].result.tools.map((t: { name: string }) => t.name)).toEqual(['deploy_preview', 'lookup_ticket']);
    expect(replies[2]).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'deploy_preview done: {"target":"staging"}' }] } });
    expect(replies[3]).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(replies[4]).toMatchObject({ id: null, error: { code: -32700 } });
    const calls = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).method);
    expect(calls).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'tools/call']);
    expect(fs.statSync(log).mode & 0o777).toBe(0o600);
  }, 30_000);
});
