/** Types of server.mjs (the scripted Anthropic Messages API server of the Claude Code lab). */

/** One logged server event; `atMs` is `Date.now()` when it happened. */
export interface LabServerEvent {
  atMs: number;
  kind: string;
  [field: string]: unknown;
}

/** A scenario file (the parts the server reads; the lab reads more). */
export interface LabScenario {
  name?: string;
  defaults?: { chunk_chars?: number; delay_ms?: number; first_delay_ms?: number };
  turns: Array<{ match: string; steps: Array<Record<string, unknown>> }>;
  [field: string]: unknown;
}

/** A running scripted server. */
export interface LabServer {
  url: string;
  port: number;
  events: LabServerEvent[];
  setScenario(s: LabScenario): void;
  close(): Promise<void>;
}

/** Reads and checks a scenario file; throws an Error naming the file, the field and the fix. */
export function loadScenario(file: string): LabScenario;
/** The first problem of a scenario, or null when it is usable. */
export function checkScenario(s: unknown): string | null;
/** Starts the server on 127.0.0.1 (port 0 = ephemeral). */
export function startServer(opts?: { scenario?: LabScenario; port?: number; cwd?: string; onEvent?: (ev: LabServerEvent) => void }): Promise<LabServer>;
/** A copy of a tool_use input with every `{cwd}` in its strings replaced (unchanged when cwd is undefined). */
export function fillInput(value: unknown, cwd?: string): unknown;
