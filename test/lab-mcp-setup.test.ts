/** The per-CLI `specterm mcp` config writers of the MCP set-up lab (lab/lib/mcp-setup.mjs), offline. */
import { describe, expect, it } from 'vitest';
import {
  addCodexServer, addOpencodeServer, addSettingsServer, findTool, MCP_SETUP, nextChatStep, offeredTools, toolResults,
} from '../lab/lib/mcp-setup.mjs';

const server = { command: '/usr/bin/node', args: ['/opt/specterm/bin/specterm.js', 'mcp'], env: { SPECTERM_TOKEN: 'tok "quoted"', SPECTERM_STATE_DIR: '/tmp/s' } };

describe('MCP set-up writers', () => {
  it('Codex: appends [mcp_servers.specterm] to config.toml, keeping what was there, strings escaped', () => {
    const toml = addCodexServer('model = "gpt-5-codex"\n\n[model_providers.lab]\nname = "Lab"\n', server);
    expect(toml).toBe([
      'model = "gpt-5-codex"', '', '[model_providers.lab]', 'name = "Lab"', '',
      '[mcp_servers.specterm]',
      'command = "/usr/bin/node"',
      'args = ["/opt/specterm/bin/specterm.js", "mcp"]',
      'env = { SPECTERM_TOKEN = "tok \\"quoted\\"", SPECTERM_STATE_DIR = "/tmp/s" }',
      '',
    ].join('\n'));
    expect(addCodexServer('', { command: 'specterm', args: ['mcp'], env: {} })).toBe('[mcp_servers.specterm]\ncommand = "specterm"\nargs = ["mcp"]\n');
  });

  it('Codex: env_vars passes variables through by name (Codex gives an MCP server only its own env)', () => {
    expect(addCodexServer('', { command: 'specterm', args: ['mcp'], env: {}, passEnv: ['SPECTERM_SESSION_ID', 'SPECTERM_NODE'] }))
      .toBe('[mcp_servers.specterm]\ncommand = "specterm"\nargs = ["mcp"]\nenv_vars = ["SPECTERM_SESSION_ID", "SPECTERM_NODE"]\n');
  });

  it('Codex: refuses a second specterm table and an env name TOML cannot take bare', () => {
    expect(() => addCodexServer('[mcp_servers.specterm]\ncommand = "x"\n', server)).toThrow(/already names \[mcp_servers\.specterm\]/);
    expect(() => addCodexServer('', { ...server, env: { 'A B': '1' } })).toThrow(/"A B" is not an environment variable name/);
  });

  it('Gemini CLI / Qwen Code: mcpServers.specterm in settings.json, other settings and servers kept', () => {
    const text = addSettingsServer(JSON.stringify({ privacy: { usageStatisticsEnabled: false }, mcpServers: { other: { command: 'x' } } }), server);
    expect(JSON.parse(text)).toEqual({
      privacy: { usageStatisticsEnabled: false },
      mcpServers: { other: { command: 'x' }, specterm: { command: server.command, args: server.args, env: server.env } },
    });
    expect(JSON.parse(addSettingsServer('', server)).mcpServers.specterm.command).toBe('/usr/bin/node');
  });

  it('OpenCode / Kilo Code: mcp.specterm, a local server whose command is one array, env as "environment"', () => {
    const text = addOpencodeServer(JSON.stringify({ model: 'lab/lab-model' }), server);
    expect(JSON.parse(text)).toEqual({
      model: 'lab/lab-model',
      mcp: { specterm: { type: 'local', command: [server.command, ...server.args], environment: server.env, enabled: true } },
    });
  });

  it('refuses a config file that is not JSON, naming the file to fix', () => {
    expect(() => addSettingsServer('{ nope', server)).toThrow(/is not JSON .* fix or remove it/);
    expect(() => addOpencodeServer('[]', server)).toThrow(/must hold a JSON object/);
  });

  it('names each CLI\'s file where docs/mcp.md puts it', () => {
    const dirs = { home: '/h', work: '/w' };
    expect(Object.fromEntries(Object.entries(MCP_SETUP).map(([cli, s]) => [cli, s.file(dirs)]))).toEqual({
      codex: '/h/.codex/config.toml',
      gemini: '/h/.gemini/settings.json',
      'qwen-code': '/h/.qwen/settings.json',
      opencode: '/w/opencode.json',
      kilocode: '/w/opencode.json',
    });
    // Only Codex clears the MCP server's environment, so only Codex passes the caller's session id on by name.
    expect(Object.fromEntries(Object.entries(MCP_SETUP).map(([cli, s]) => [cli, s.passEnv ?? null]))).toEqual({
      codex: ['SPECTERM_SESSION_ID', 'SPECTERM_NODE'], gemini: null, 'qwen-code': null, opencode: null, kilocode: null,
    });
  });
});

describe('what a CLI sent its model', () => {
  it('reads the offered tool names of the three wire formats', () => {
    expect(offeredTools({ tools: [{ type: 'function', name: 'shell' }, { type: 'namespace', name: 'mcp__specterm', tools: [{ name: 'list_sessions' }, { name: 'handoff' }] }] }))
      .toEqual(['shell', 'mcp__specterm/list_sessions', 'mcp__specterm/handoff']);
    expect(offeredTools({ tools: [{ type: 'function', function: { name: 'specterm_list_sessions' } }] })).toEqual(['specterm_list_sessions']);
    expect(offeredTools({ tools: [{ functionDeclarations: [{ name: 'mcp_specterm_list_sessions' }, { name: 'read_file' }] }] })).toEqual(['mcp_specterm_list_sessions', 'read_file']);
    expect(offeredTools({})).toEqual([]);
  });

  it('finds an MCP tool by its own name under the CLI\'s prefix, never a longer tool that ends the same', () => {
    const names = ['read_file', 'mcp__specterm__list_sessions', 'specterm_list_sessions_old', 'my_list_sessions2'];
    expect(findTool(names, 'list_sessions')).toBe('mcp__specterm__list_sessions');
    expect(findTool(['mcp__specterm/handoff'], 'handoff')).toBe('mcp__specterm/handoff');
    expect(findTool(['specterm_handoff'], 'handoff')).toBe('specterm_handoff');
    expect(findTool(['list_sessions'], 'list_sessions')).toBe('list_sessions');
    expect(findTool(['read_file'], 'list_sessions')).toBeNull();
  });

  it('reads the tool results a request carries back, as text', () => {
    expect(toolResults({ input: [{ type: 'function_call_output', call_id: 'c1', output: '{"sessions":[]}' }, { type: 'message' }] })).toEqual(['{"sessions":[]}']);
    expect(toolResults({ input: [{ type: 'function_call_output', output: [{ type: 'input_text', text: 'a' }] }] })).toEqual(['[{"type":"input_text","text":"a"}]']);
    expect(toolResults({ messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: [{ type: 'text', text: '{"you":null}' }] }] })).toEqual(['{"you":null}']);
    expect(toolResults({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'list_sessions', response: { output: 'ok' } } }] }] })).toEqual(['{"output":"ok"}']);
    expect(toolResults({})).toEqual([]);
  });
});

describe('the scripted turn of a Chat Completions CLI', () => {
  const turn = { tool: 'list_sessions', arguments: {}, done: 'Listed.' };
  const fn = (name: string) => ({ type: 'function', function: { name } });
  const user = { role: 'user', content: 'please list the sessions' };

  it('calls the tool under its offered name, then closes once its result came back', () => {
    const tools = [fn('read_file'), fn('specterm_list_sessions')];
    expect(nextChatStep({ tools, messages: [user] }, turn)).toEqual({ chunks: [], toolCall: { name: 'specterm_list_sessions', arguments: {} } });
    const called = { role: 'assistant', tool_calls: [{ function: { name: 'specterm_list_sessions' } }] };
    expect(nextChatStep({ tools, messages: [user, called, { role: 'tool', content: '{}' }] }, turn)).toEqual({ chunks: ['Listed.'] });
  });

  it('fetches deferred MCP tools with tool_search first (Qwen Code), and scripts nothing when neither is offered', () => {
    expect(nextChatStep({ tools: [fn('tool_search')], messages: [user] }, turn)).toEqual({ chunks: [], toolCall: { name: 'tool_search', arguments: { query: '+specterm', max_results: 20 } } });
    const searched = { role: 'assistant', tool_calls: [{ function: { name: 'tool_search' } }] };
    expect(nextChatStep({ tools: [fn('tool_search'), fn('mcp__specterm__list_sessions')], messages: [user, searched, { role: 'tool', content: 'schemas' }] }, turn))
      .toEqual({ chunks: [], toolCall: { name: 'mcp__specterm__list_sessions', arguments: {} } });
    expect(nextChatStep({ tools: [fn('read_file')], messages: [user] }, turn)).toBeNull();
  });
});
