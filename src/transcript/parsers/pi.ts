/**
 * `pi-jsonl`: pi's session file (`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`, pi 0.73). One
 * entry a line: a `session` header (the id, the cwd), then `message` entries — the person's
 * (`user`), the model's (`assistant`: text, thinking and `toolCall` blocks, with usage and cost),
 * a tool's (`toolResult`, an edit's diff in `details.diff`) and a shell command the person ran
 * with `!` (`bashExecution`) — and bookkeeping entries (model or thinking level changes,
 * compactions, labels…) a transcript does not show. Entries form a tree (`id`/`parentId`: /tree and
 * /fork branch it); the transcript follows the file's order.
 */
import type { FileEdit, TokenUsage, ToolCallStatus } from '../../protocol/transcripts.js';
import { diffFromHunks, diffWholeFile, type Hunk } from '../diff.js';
import { asRecord, count, parseTime, type HistoryParser, type TranscriptEvent } from '../events.js';

/** Entries a transcript does not show: known, so not drift. */
const SKIPPED_ENTRIES = new Set(['model_change', 'thinking_level_change', 'compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);
/** Messages that are context pi adds (an extension's note, a summary of a branch or of compacted history). */
const SKIPPED_ROLES = new Set(['custom', 'branchSummary', 'compactionSummary']);

export function createPiParser(): HistoryParser {
  /** Calls by id: a write's result needs the content its call carried. */
  const calls = new Map<string, { name: string; input: Record<string, unknown> | null }>();
  return {
    feed(raw) {
      const rec = asRecord(raw);
      const type = typeof rec?.type === 'string' ? rec.type : '(none)';
      if (!rec) return [{ type: 'unknown', record_type: type }];
      const at = parseTime(rec.timestamp);
      if (type === 'session') return typeof rec.id === 'string' ? [{ type: 'session', id: rec.id, at }] : [];
      if (SKIPPED_ENTRIES.has(type)) return [];
      if (type !== 'message') return [{ type: 'unknown', record_type: type }];
      const msg = asRecord(rec.message);
      const role = typeof msg?.role === 'string' ? msg.role : '(none)';
      if (!msg) return [{ type: 'unknown', record_type: 'message:(none)' }];
      switch (role) {
        case 'user':
          return [{ type: 'user', text: textOf(msg.content), at }];
        case 'assistant':
          return assistant(msg, at, calls);
        case 'toolResult':
          return toolResult(msg, at, calls);
        case 'bashExecution':
          return bashExecution(msg, rec, at);
        default:
          return SKIPPED_ROLES.has(role) ? [] : [{ type: 'unknown', record_type: `message:${role}` }];
      }
    },
  };
}

function assistant(msg: Record<string, unknown>, at: number | null, calls: Map<string, { name: string; input: Record<string, unknown> | null }>): TranscriptEvent[] {
  const model = typeof msg.model === 'string' ? msg.model : undefined;
  const out: TranscriptEvent[] = [];
  for (const block of Array.isArray(msg.content) ? msg.content : []) {
    const b = asRecord(block);
    if (b?.type === 'text' && typeof b.text === 'string') out.push({ type: 'assistant_text', text: b.text, at, ...(model ? { model } : {}) });
    else if (b?.type === 'toolCall' && typeof b.id === 'string') {
      const name = String(b.name ?? '');
      calls.set(b.id, { name, input: asRecord(b.arguments) });
      out.push({ type: 'tool_call', id: b.id, name, input: b.arguments ?? null, at });
    }
  }
  // An error or an interrupt ends the answer where it stood: say so after what was said.
  if (typeof msg.errorMessage === 'string' && msg.errorMessage) out.push({ type: 'assistant_text', text: `(${String(msg.stopReason ?? 'error')}: ${msg.errorMessage})`, at, ...(model ? { model } : {}) });
  const usage = usageOf(msg.usage);
  if (usage) out.push({ type: 'usage', usage, at });
  return out;
}

function toolResult(msg: Record<string, unknown>, at: number | null, calls: Map<string, { name: string; input: Record<string, unknown> | null }>): TranscriptEvent[] {
  const id = typeof msg.toolCallId === 'string' ? msg.toolCallId : null;
  if (!id) return [];
  const call = calls.get(id);
  calls.delete(id);
  const status: ToolCallStatus = msg.isError === true ? 'error' : 'ok';
  const edits = status === 'ok' ? editsOf(call, asRecord(msg.details)) : [];
  return [{ type: 'tool_result', id, output: textOf(msg.content), status, at, ...(edits.length ? { edits } : {}) }];
}

/** `!command` typed by the person: a turn of its own whose one call is the command. */
function bashExecution(msg: Record<string, unknown>, rec: Record<string, unknown>, at: number | null): TranscriptEvent[] {
  const command = typeof msg.command === 'string' ? msg.command : '';
  const id = typeof rec.id === 'string' ? rec.id : `bash-${String(at)}`;
  const exit = typeof msg.exitCode === 'number' ? msg.exitCode : null;
  const status: ToolCallStatus = msg.cancelled === true || (exit !== null && exit !== 0) ? 'error' : 'ok';
  return [
    { type: 'user', text: `!${command}`, at },
    { type: 'tool_call', id, name: 'bash', input: { command }, at },
    { type: 'tool_result', id, output: typeof msg.output === 'string' ? msg.output : '', status, at },
  ];
}

function editsOf(call: { name: string; input: Record<string, unknown> | null } | undefined, details: Record<string, unknown> | null): FileEdit[] {
  const path = typeof call?.input?.path === 'string' ? call.input.path : null;
  if (!call || !path) return [];
  if (call.name === 'edit' && typeof details?.diff === 'string') return [unifiedFromPiDiff(path, details.diff)];
  // pi keeps no copy of what a write replaced: the file as written, whole.
  if (call.name === 'write' && typeof call.input?.content === 'string') return [diffWholeFile(path, call.input.content, 'create')];
  return [];
}

const DIFF_LINE = /^([ +-]) *(\d+) (.*)$/s;
const SKIP_LINE = /^ +\.\.\.$/;

/**
 * pi's edit diff is made for its screen: `+<new line no> text`, `-<old line no> text`,
 * ` <old line no> text` and ` ...` where unchanged lines were left out. Made into unified hunks
 * (one per run between the `...` marks); a line that is neither is kept as context.
 */
export function unifiedFromPiDiff(path: string, diff: string): FileEdit {
  const hunks: Hunk[] = [];
  let hunk: Hunk | null = null;
  /** New line number minus old line number so far (lines added minus lines removed). */
  let delta = 0;
  for (const line of diff.split('\n')) {
    if (SKIP_LINE.test(line)) {
      hunk = null;
      continue;
    }
    const m = DIFF_LINE.exec(line);
    const sign = m?.[1] ?? ' ';
    const n = Number(m?.[2] ?? 0);
    if (!hunk) {
      const oldStart = sign === '+' ? n - delta : n;
      hunk = { oldStart, oldLines: 0, newStart: sign === '+' ? n : n + delta, newLines: 0, lines: [] };
      hunks.push(hunk);
    }
    hunk.lines.push(`${sign}${m ? (m[3] ?? '') : line}`);
    if (sign !== '+') hunk.oldLines += 1;
    if (sign !== '-') hunk.newLines += 1;
    if (sign === '+') delta += 1;
    if (sign === '-') delta -= 1;
  }
  return diffFromHunks(path, hunks, 'edit');
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => {
    const b = asRecord(c);
    return b?.type === 'text' && typeof b.text === 'string' ? b.text : '';
  }).join('');
}

function usageOf(value: unknown): TokenUsage | null {
  const u = asRecord(value);
  const input = count(u?.input);
  const output = count(u?.output);
  if (!u || input === undefined || output === undefined) return null;
  const usage: TokenUsage = { input_tokens: input, output_tokens: output };
  const cacheRead = count(u.cacheRead);
  const cacheWrite = count(u.cacheWrite);
  if (cacheRead !== undefined) usage.cache_read_tokens = cacheRead;
  if (cacheWrite !== undefined) usage.cache_write_tokens = cacheWrite;
  const cost = asRecord(u.cost)?.total;
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) usage.cost_usd = cost;
  return usage;
}
