/** Types of lab/lib/openai-chat-server.mjs (the scripted OpenAI Chat Completions server), for the TypeScript tests. */

/** One scripted model step: streamed text chunks, optionally ending in a tool call. */
export interface ChatStep {
  chunks?: string[];
  chunkDelayMs?: number;
  firstDelayMs?: number;
  toolCall?: { name: string; arguments: Record<string, unknown> };
  /** Several tool calls in one assistant message (instead of `toolCall`). */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

/** A reply, chosen by the first `match` (case-insensitive regex) that finds the user's latest text. */
export interface ChatReply extends ChatStep {
  match?: string;
  /** Streamed once the CLI sends the tool's result back. */
  afterTool?: ChatStep;
  /** Answer the request with this HTTP error instead of a stream. */
  error?: { status: number; message?: string; type?: string; code?: string | null };
}

export interface ChatScenario {
  name: string;
  description?: string;
  replies: ChatReply[];
}

/** A ground-truth log entry; `t` is wall-clock ms. */
export interface ChatLogEntry {
  t: number;
  event: string;
  [field: string]: unknown;
}

export interface ChatServer {
  /** The base URL to give the CLI (ends in `/v1`). */
  url: string;
  port: number;
  log: ChatLogEntry[];
  setScenario(s: ChatScenario): void;
  pendingTool(): { id: string; name: string; arguments: Record<string, unknown> } | null;
  waitFor(pred: (e: ChatLogEntry) => boolean, timeoutMs: number): Promise<ChatLogEntry>;
  close(): Promise<void>;
}

export function loadChatScenarios(dir: string): Record<string, ChatScenario>;
export function latestUserText(messages: unknown[]): string;
export function fillSchema(schema: unknown): unknown;
export function startChatServer(opts?: { scenario?: ChatScenario; port?: number; logFile?: string; models?: string[]; isSideCall?: (body: Record<string, unknown>) => boolean; onRequest?: (body: Record<string, unknown>) => void }): Promise<ChatServer>;
