/**
 * `specterm mcp` configured in an agent CLI the way docs/mcp.md ("Set-up per CLI") tells a person
 * to: one writer per config format, each taking the file's current text and answering the new
 * text (pure, so test/lab-mcp-setup.test.ts checks them offline), and where each CLI reads that
 * file. Also what the MCP set-up lab reads back from a CLI's requests to its model: the tool
 * names it offers and the tool results it returns, in the three wire formats of the labs
 * (OpenAI Responses, OpenAI Chat Completions, Gemini).
 *
 * `server` everywhere: `{ command, args, env, passEnv? }` — `env` the variables the config sets
 * (the daemon's dirs, SPECTERM_TOKEN), `passEnv` the ones a CLI that clears an MCP server's
 * environment must pass through by name (Codex's `env_vars`).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';

/** The server's name in every CLI's config: the prefix of its tool names there. */
export const SERVER_NAME = 'specterm';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** TOML basic strings take JSON's escapes (\" \\ \n \uXXXX), so JSON.stringify quotes them. */
const tomlString = (s) => JSON.stringify(String(s));
const tomlArray = (items) => `[${items.map(tomlString).join(', ')}]`;

function checkEnvNames(names) {
  for (const name of names) {
    if (!ENV_NAME.test(name)) throw new Error(`mcp-setup: "${name}" is not an environment variable name (letters, digits and _, not starting with a digit); rename it`);
  }
}

/** Codex CLI, `~/.codex/config.toml`: a `[mcp_servers.specterm]` table appended to the file. */
export function addCodexServer(toml, server) {
  if (/^\s*\[mcp_servers\.specterm\]/m.test(toml)) throw new Error('mcp-setup: config.toml already names [mcp_servers.specterm]; remove that table first');
  const env = Object.entries(server.env ?? {});
  checkEnvNames([...env.map(([k]) => k), ...(server.passEnv ?? [])]);
  const lines = [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString(server.command)}`,
    `args = ${tomlArray(server.args ?? [])}`,
    ...(env.length ? [`env = { ${env.map(([k, v]) => `${k} = ${tomlString(v)}`).join(', ')} }`] : []),
    ...(server.passEnv?.length ? [`env_vars = ${tomlArray(server.passEnv)}`] : []),
  ];
  const before = toml === '' ? '' : `${toml.replace(/\n*$/, '')}\n\n`;
  return `${before}${lines.join('\n')}\n`;
}

/** The JSON object a config file holds ('' → {}); throws naming the fix. */
function parseConfig(text) {
  if (text.trim() === '') return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`mcp-setup: the config file is not JSON (${err.message}); fix or remove it`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('mcp-setup: the config file must hold a JSON object ({ … }); fix it');
  return value;
}

/** Gemini CLI and Qwen Code, `settings.json`: `mcpServers.specterm = {command, args, env}`. */
export function addSettingsServer(text, server) {
  const config = parseConfig(text);
  config.mcpServers = { ...config.mcpServers, [SERVER_NAME]: { command: server.command, args: server.args ?? [], env: server.env ?? {} } };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** OpenCode and Kilo Code: `mcp.specterm = {type: "local", command: [command, …args], environment}`. */
export function addOpencodeServer(text, server) {
  const config = parseConfig(text);
  config.mcp = { ...config.mcp, [SERVER_NAME]: { type: 'local', command: [server.command, ...(server.args ?? [])], environment: server.env ?? {}, enabled: true } };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * Per CLI (the lab ids): the file docs/mcp.md names, under the person's HOME or the workspace
 * (`dirs = {home, work}`), and its writer.
 */
export const MCP_SETUP = {
  // Codex starts an MCP server with a short list of its own variables plus `env` (not the whole
  // environment): the caller's session id reaches `specterm mcp` only when passed by name.
  codex: { file: ({ home }) => path.join(home, '.codex', 'config.toml'), add: addCodexServer, passEnv: ['SPECTERM_SESSION_ID', 'SPECTERM_NODE'] },
  gemini: { file: ({ home }) => path.join(home, '.gemini', 'settings.json'), add: addSettingsServer },
  'qwen-code': { file: ({ home }) => path.join(home, '.qwen', 'settings.json'), add: addSettingsServer },
  opencode: { file: ({ work }) => path.join(work, 'opencode.json'), add: addOpencodeServer },
  kilocode: { file: ({ work }) => path.join(work, 'opencode.json'), add: addOpencodeServer },
};

/** Adds the server to `cli`'s config file (created 0600 when missing); answers the file's path. */
export function writeMcpServer(cli, dirs, server) {
  const setup = MCP_SETUP[cli];
  if (!setup) throw new Error(`mcp-setup: no MCP set-up for "${cli}"; pick one of ${Object.keys(MCP_SETUP).join(', ')}`);
  const file = setup.file(dirs);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, setup.add(text, setup.passEnv ? { ...server, passEnv: setup.passEnv } : server), { mode: 0o600 });
  return file;
}

/**
 * The tool names a request offers its model: Responses (`tools[].name`; a namespace's functions
 * as `<namespace>/<function>`, Codex's shape for an MCP server), Chat Completions
 * (`tools[].function.name`) or Gemini (`tools[].functionDeclarations[].name`).
 */
export function offeredTools(body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.flatMap((t) => {
    if (Array.isArray(t?.functionDeclarations)) return t.functionDeclarations.map((d) => d?.name);
    if (t?.type === 'namespace' && Array.isArray(t.tools)) return t.tools.map((f) => `${t.name}/${f?.name}`);
    return [t?.function?.name ?? t?.name];
  }).filter((n) => typeof n === 'string');
}

/**
 * The offered name of specterm's MCP tool `tool`: the bare name, or the name after the server's
 * name and a CLI's separator (`mcp__specterm__x`, `specterm_x`, `mcp__specterm/x`); null when not offered.
 */
export function findTool(names, tool) {
  const prefixed = new RegExp(`${SERVER_NAME}(?:__|_|/)${tool}$`);
  return names.find((n) => n === tool || prefixed.test(n)) ?? null;
}

const asText = (v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** The tool results a request carries back to its model, as text (all of them, in order). */
export function toolResults(body) {
  if (Array.isArray(body?.input)) {
    return body.input.filter((it) => it?.type === 'function_call_output' || it?.type === 'custom_tool_call_output').map((it) => asText(it.output));
  }
  if (Array.isArray(body?.messages)) {
    return body.messages.filter((m) => m?.role === 'tool').map((m) => (Array.isArray(m.content) ? m.content.map((p) => p?.text ?? '').join('\n') : asText(m.content)));
  }
  if (Array.isArray(body?.contents)) {
    return body.contents.flatMap((c) => (Array.isArray(c?.parts) ? c.parts : [])).filter((p) => p?.functionResponse).map((p) => asText(p.functionResponse.response));
  }
  return [];
}

/** The tool calls of the last assistant message of a Chat Completions request. */
const lastCalls = (messages) => [...messages].reverse().find((m) => m?.role === 'assistant')?.tool_calls?.map((c) => c?.function?.name) ?? [];

/**
 * The next scripted step of a Chat Completions turn, from what the request shows: the tool's
 * result came back → the closing text; the tool is offered → its call; only `tool_search` is
 * (Qwen Code defers MCP tools: the model fetches them by name first) → a search that reveals
 * specterm's tools; otherwise null (nothing scripted yet).
 */
export function nextChatStep(body, turn) {
  const names = offeredTools(body);
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const name = findTool(names, turn.tool);
  if (messages.at(-1)?.role === 'tool' && name && lastCalls(messages).includes(name)) return { chunks: [turn.done] };
  if (name) return { chunks: [], toolCall: { name, arguments: turn.arguments } };
  if (names.includes('tool_search')) return { chunks: [], toolCall: { name: 'tool_search', arguments: { query: '+specterm', max_results: 20 } } };
  return null;
}
