/**
 * The agent's work as text: one transcript model for every CLI, whether it was read from the
 * CLI's own history files (`native`, with the history format) or derived from the screen.
 * A transcript is turns: the person's message, then what the agent did in order — its text and
 * its tool calls (name, input, output, status, duration, file edits as unified diffs) — with the
 * token usage and cost the history reports, and the CLI's own session id (which can change within
 * one specterm session: Claude Code's `/clear` starts a new one).
 * @module
 */
import { z } from 'zod';
import type { HistoryFormat as SpecHistoryFormat } from '../core/spec/types.js';
import { EpochMs } from './common.js';
import { NodeName } from './node.js';

/** The spec's history formats (core's HISTORY_FORMATS; the protocol takes types only from core). */
const FORMATS = ['claude-jsonl', 'codex-rollout-jsonl', 'gemini-json', 'gemini-jsonl', 'qwen-jsonl', 'pi-jsonl', 'opencode-storage', 'opencode-sqlite', 'demo-jsonl'] as const;
// Compile-time: the two lists name the same formats.
const sameFormats: [SpecHistoryFormat, (typeof FORMATS)[number]] extends [(typeof FORMATS)[number], SpecHistoryFormat] ? true : never = true;
void sameFormats;

/** A history format (a spec's `native_history.format`). */
export const HistoryFormat = z.enum(FORMATS);
export type HistoryFormat = z.infer<typeof HistoryFormat>;

/** Where a transcript came from: the CLI's own files, or the terminal screen. */
export const TranscriptSource = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('native'), format: HistoryFormat }),
  z.strictObject({ kind: z.literal('screen') }),
]);
export type TranscriptSource = z.infer<typeof TranscriptSource>;

/** Tokens as the history reports them; a count the CLI does not write is absent. */
export const TokenUsage = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_tokens: z.number().int().nonnegative().optional(),
  cache_write_tokens: z.number().int().nonnegative().optional(),
  reasoning_tokens: z.number().int().nonnegative().optional(),
  cost_usd: z.number().nonnegative().optional().meta({ description: 'only where the CLI writes a cost' }),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/** One file a tool call changed, as a unified diff (`--- a/…`, `+++ b/…`, `@@` hunks). */
export const FileEdit = z.strictObject({
  path: z.string(),
  kind: z.enum(['create', 'edit', 'delete']),
  diff: z.string(),
});
export type FileEdit = z.infer<typeof FileEdit>;

/** `pending`: no result yet; `denied`: a person (or the policy) refused it. */
export const ToolCallStatus = z.enum(['pending', 'ok', 'error', 'denied']);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

export const ToolCall = z.strictObject({
  kind: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  input: z.unknown().meta({ description: 'the arguments as the model sent them (JSON)' }),
  output: z.string().nullable().meta({ description: 'what the tool gave back; null while pending' }),
  status: ToolCallStatus,
  at: EpochMs.nullable(),
  duration_ms: z.number().int().nonnegative().nullable(),
  edits: z.array(FileEdit),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const AssistantText = z.strictObject({
  kind: z.literal('text'),
  text: z.string(),
  at: EpochMs.nullable(),
});
export type AssistantText = z.infer<typeof AssistantText>;

/** What the agent did in a turn, in order. */
export const TurnItem = z.discriminatedUnion('kind', [AssistantText, ToolCall]);
export type TurnItem = z.infer<typeof TurnItem>;

export const Turn = z.strictObject({
  index: z.number().int().nonnegative(),
  native_session_id: z.string().nullable(),
  user: z.strictObject({ text: z.string(), at: EpochMs.nullable() }).nullable().meta({ description: 'null: the agent spoke first (a resumed or startup turn)' }),
  items: z.array(TurnItem),
  usage: TokenUsage.nullable(),
  model: z.string().nullable(),
  started_at: EpochMs.nullable(),
  ended_at: EpochMs.nullable(),
});
export type Turn = z.infer<typeof Turn>;

/**
 * Stable codes of what went wrong while reading a history: each is counted and shown on the
 * session, never a crash or a lost transcript.
 */
export const TRANSCRIPT_WARNING_CODES = {
  HISTORY_CORRUPT_LINE: 'a line is not JSON (it is skipped)',
  HISTORY_LINE_TOO_LONG: 'a line is over the size cap (it is skipped)',
  HISTORY_TRUNCATED_LINE: 'the file ended in the middle of a line that never completed',
  HISTORY_UNKNOWN_RECORD: 'a record of a type the parser does not know (likely a newer CLI version)',
  HISTORY_FILE_ROTATED: 'the file was replaced or shrank; reading starts again from its beginning',
  HISTORY_FILE_DELETED: 'the file went away; what was read is kept',
  HISTORY_PERMISSION_DENIED: 'the file cannot be read (permissions)',
  HISTORY_OUTSIDE_HOME: 'the path leads outside the home directory (a symlink); it is not read',
  HISTORY_READ_FAILED: 'the file could not be read for another reason',
  SCREEN_TURN_CUT: 'the start of an answer read off the screen had already scrolled away (the answer is its end)',
} as const;
export type TranscriptWarningCode = keyof typeof TRANSCRIPT_WARNING_CODES;

export const TranscriptWarning = z.strictObject({
  code: z.enum(Object.keys(TRANSCRIPT_WARNING_CODES) as [TranscriptWarningCode, ...TranscriptWarningCode[]]),
  message: z.string(),
  count: z.number().int().positive(),
  /** For HISTORY_UNKNOWN_RECORD: the record type (a drift note for the spec's maintainers). */
  record_type: z.string().optional(),
});
export type TranscriptWarning = z.infer<typeof TranscriptWarning>;

export const Transcript = z.strictObject({
  source: TranscriptSource,
  /** Every native id the CLI used, in order (more than one after a /clear or a resume). */
  native_session_ids: z.array(z.string()),
  turns: z.array(Turn),
  usage: TokenUsage.nullable(),
  warnings: z.array(TranscriptWarning),
});
export type Transcript = z.infer<typeof Transcript>;

/** One hit of a search across every session's transcript. */
export const TranscriptSearchHit = z.strictObject({
  session_id: z.string(),
  /** Served by a hub: the node the session runs on (its `session_id` is that node's). */
  node: NodeName.optional(),
  turn_index: z.number().int().nonnegative(),
  role: z.enum(['user', 'assistant', 'tool']),
  snippet: z.string().meta({ description: 'the matching text with the match between [ and ]' }),
  at: EpochMs.nullable(),
});
export type TranscriptSearchHit = z.infer<typeof TranscriptSearchHit>;

/** `GET /api/v1/search`: words to find in every session's transcript. */
export const SearchQuery = z.strictObject({
  q: z.string().max(500, 'a search is at most 500 characters: the words you look for').default('').meta({ description: 'the words to find (the last one as a prefix); none finds nothing' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** A node whose transcripts a hub could not search: it did not answer (as of `since`, its last presence record). */
export const SearchUnanswered = z.strictObject({
  node: NodeName,
  since: EpochMs.meta({ description: 'when the node was last heard from' }),
});
export const SearchResult = z.strictObject({
  hits: z.array(TranscriptSearchHit),
  /** Served by a hub: the nodes that did not answer, so their sessions are not in the hits. */
  unanswered: z.array(SearchUnanswered).optional(),
});

/** `GET …/transcript`: the session's conversation so far (`turns`: at most the last N). */
export const TranscriptQuery = z.strictObject({ last: z.coerce.number().int().min(1).max(10_000).optional() });
/** A session's transcript; `null` source when it keeps none (its spec names no history this daemon can read). */
export const SessionTranscript = z.strictObject({ session_id: z.string(), transcript: Transcript.nullable() });
