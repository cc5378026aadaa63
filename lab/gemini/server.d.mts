/** Types of lab/gemini/server.mjs (the scripted Gemini API server), for the TypeScript tests. */

/** One scripted model step: streamed text chunks, optionally ending in a function call. */
export interface GeminiStep {
  chunks?: string[];
  chunkDelayMs?: number;
  firstDelayMs?: number;
  functionCall?: { name: string; args: Record<string, unknown> };
}

/** A reply, chosen by the first `match` (case-insensitive regex) that finds the user's latest text. */
export interface GeminiReply extends GeminiStep {
  match?: string;
  /** Streamed once the CLI sends the function's result back. */
  afterTool?: GeminiStep;
  /** Answer the first `times` prompts (every one when absent) with this HTTP status and JSON body instead of a stream. */
  error?: { status: number; body?: unknown; times?: number };
}

export interface GeminiScenario {
  name: string;
  description?: string;
  replies: GeminiReply[];
}

/** A ground-truth log entry; `t` is wall-clock ms. */
export interface GeminiLogEntry {
  t: number;
  event: string;
  [field: string]: unknown;
}

export interface GeminiServer {
  url: string;
  port: number;
  log: GeminiLogEntry[];
  setScenario(s: GeminiScenario): void;
  pendingTool(): { name: string; args: Record<string, unknown> } | null;
  waitFor(pred: (e: GeminiLogEntry) => boolean, timeoutMs: number): Promise<GeminiLogEntry>;
  close(): Promise<void>;
}

export function loadScenarios(dir?: string): Record<string, GeminiScenario>;
export function fillSchema(schema: unknown): unknown;
export function startGeminiServer(opts?: { scenario?: GeminiScenario; port?: number; logFile?: string }): Promise<GeminiServer>;
