/** Types of lab/lib/mcp-setup.mjs, for the TypeScript tests. */

export interface McpServer { command: string; args?: string[]; env?: Record<string, string>; passEnv?: string[] }
export interface McpDirs { home: string; work: string }

export const SERVER_NAME: 'specterm';
export function addCodexServer(toml: string, server: McpServer): string;
export function addSettingsServer(text: string, server: McpServer): string;
export function addOpencodeServer(text: string, server: McpServer): string;
export const MCP_SETUP: Record<'codex' | 'gemini' | 'qwen-code' | 'opencode' | 'kilocode', { file(dirs: McpDirs): string; add(text: string, server: McpServer): string; passEnv?: string[] }>;
export function writeMcpServer(cli: string, dirs: McpDirs, server: McpServer): string;
export function offeredTools(body: unknown): string[];
export function findTool(names: string[], tool: string): string | null;
export function toolResults(body: unknown): string[];
export interface McpTurn { tool: string; arguments: Record<string, unknown>; done: string }
export function nextChatStep(body: unknown, turn: McpTurn): { chunks: string[]; toolCall?: { name: string; arguments: Record<string, unknown> } } | null;
