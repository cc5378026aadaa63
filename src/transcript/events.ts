/**
 * What a history parser says about the records it is fed: the vocabulary between a format's
 * parser (records in) and the transcript builder (turns out). Pure data, no I/O.
 */
import type { FileEdit, TokenUsage, ToolCallStatus } from '../protocol/transcripts.js';

export type TranscriptEvent =
  /**
   * The CLI's own session id, first seen or changed (Claude Code's /clear forks it), with the
   * folder the CLI ran in when the file says (`cwd`, or its SHA-256 `cwd_sha256`): the newest-file
   * discovery tells two sessions' files apart by it.
   */
  | { type: 'session'; id: string; at: number | null; cwd?: string; cwd_sha256?: string }
  /** A person's message: it starts a turn. */
  | { type: 'user'; text: string; at: number | null }
  | { type: 'assistant_text'; text: string; at: number | null; model?: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown; at: number | null }
  | { type: 'tool_result'; id: string; output: string; status: ToolCallStatus; at: number | null; duration_ms?: number; edits?: FileEdit[] }
  /** Tokens of one model response, added to the turn's usage. */
  | { type: 'usage'; usage: TokenUsage; at: number | null }
  /** A record of a type the parser does not know: counted, and a drift note. */
  | { type: 'unknown'; record_type: string };

/** A stateful parser of one history file: fed each JSON record in file order. */
export interface HistoryParser {
  feed(record: unknown): TranscriptEvent[];
}

/** `Date.parse` of an ISO timestamp, or null when absent or not a date. */
export function parseTime(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.round(value);
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** A plain object, or null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A non-negative integer count, or undefined. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Token counts from a history's usage object: `input_tokens` and `output_tokens` are required,
 * `extra` names the fields that carry the optional counts in this format.
 */
export function usageFrom(value: unknown, extra: Partial<Record<'cache_read_tokens' | 'cache_write_tokens' | 'reasoning_tokens', string>>): TokenUsage | null {
  const u = asRecord(value);
  const input = count(u?.input_tokens);
  const output = count(u?.output_tokens);
  if (!u || input === undefined || output === undefined) return null;
  const usage: TokenUsage = { input_tokens: input, output_tokens: output };
  for (const [key, field] of Object.entries(extra) as [keyof typeof extra, string][]) {
    const n = count(u[field]);
    if (n !== undefined) usage[key] = n;
  }
  return usage;
}
