/**
 * `codex-rollout-jsonl`: Codex CLI's rollout file (`$CODEX_HOME/sessions/YYYY/MM/DD/
 * rollout-<time>-<session id>.jsonl`, Codex 0.171). One `{timestamp, type, payload}` record a line:
 * `session_meta` (the session id), `response_item` (the conversation as the model saw it: messages,
 * function calls and their outputs), `event_msg` (UI events; a `FileChange` item carries an
 * edit's content), `token_usage_record` (tokens per response). Records wrapped in `<…>` tags
 * (environment context, instructions) are context Codex adds, not a person's words.
 */
import type { FileEdit, TokenUsage } from '../../protocol/transcripts.js';
import { diffWholeFile } from '../diff.js';
import { asRecord, parseTime, usageFrom, type HistoryParser, type TranscriptEvent } from '../events.js';

const TOP_LEVEL = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'world_state', 'token_usage_record', 'compacted']);
const RESPONSE_ITEMS_SKIPPED = new Set(['reasoning', 'web_search_call', 'local_shell_call', 'ghost_snapshot', 'compaction']);

export function createCodexParser(): HistoryParser {
  /** Edits Codex reported for a call before its output came back. */
  const editsByCall = new Map<string, FileEdit[]>();
  let sawUsageRecords = false;
  return {
    feed(raw) {
      const rec = asRecord(raw);
      const type = typeof rec?.type === 'string' ? rec.type : '(none)';
      const payload = asRecord(rec?.payload);
      if (!rec || !payload) return [{ type: 'unknown', record_type: type }];
      if (!TOP_LEVEL.has(type)) return [{ type: 'unknown', record_type: type }];
      const at = parseTime(rec.timestamp);
      switch (type) {
        case 'session_meta':
          return typeof payload.id === 'string' ? [{ type: 'session', id: payload.id, at, ...(typeof payload.cwd === 'string' ? { cwd: payload.cwd } : {}) }] : [];
        case 'response_item':
          return responseItem(payload, at, editsByCall);
        case 'token_usage_record': {
          sawUsageRecords = true;
          const usage = usageOf(payload.usage);
          return usage ? [{ type: 'usage', usage, at }] : [];
        }
        case 'event_msg':
          return eventMsg(payload, at, editsByCall, sawUsageRecords);
        default:
          return [];
      }
    },
  };
}

function responseItem(p: Record<string, unknown>, at: number | null, editsByCall: Map<string, FileEdit[]>): TranscriptEvent[] {
  switch (p.type) {
    case 'message': {
      const text = messageText(p.content);
      if (p.role === 'user') return isContextBlock(text) ? [] : [{ type: 'user', text, at }];
      if (p.role === 'assistant') return [{ type: 'assistant_text', text, at }];
      return [];
    }
    case 'function_call':
    case 'custom_tool_call': {
      const id = typeof p.call_id === 'string' ? p.call_id : null;
      if (!id) return [];
      return [{ type: 'tool_call', id, name: String(p.name ?? ''), input: p.type === 'function_call' ? parseArguments(p.arguments) : (p.input ?? null), at }];
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const id = typeof p.call_id === 'string' ? p.call_id : null;
      if (!id) return [];
      const output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '');
      const edits = editsByCall.get(id);
      editsByCall.delete(id);
      return [{ type: 'tool_result', id, output, status: statusOf(output), at, ...(edits ? { edits } : {}) }];
    }
    default:
      return RESPONSE_ITEMS_SKIPPED.has(String(p.type)) ? [] : [{ type: 'unknown', record_type: `response_item:${String(p.type)}` }];
  }
}

function eventMsg(p: Record<string, unknown>, at: number | null, editsByCall: Map<string, FileEdit[]>, sawUsageRecords: boolean): TranscriptEvent[] {
  const item = asRecord(p.item);
  if (p.type === 'item_completed' && item?.type === 'FileChange' && typeof item.id === 'string') {
    editsByCall.set(item.id, fileChanges(item.changes));
    return [];
  }
  // Before token_usage_record (older Codex), token_count's last response is the only count.
  if (p.type === 'token_count' && !sawUsageRecords) {
    const usage = usageOf(asRecord(p.info)?.last_token_usage);
    return usage ? [{ type: 'usage', usage, at }] : [];
  }
  return [];
}

function fileChanges(changes: unknown): FileEdit[] {
  const out: FileEdit[] = [];
  for (const [path, change] of Object.entries(asRecord(changes) ?? {})) {
    const c = asRecord(change);
    if (c?.type === 'add' && typeof c.content === 'string') out.push(diffWholeFile(path, c.content, 'create'));
    else if (c?.type === 'delete') out.push(diffWholeFile(path, typeof c.content === 'string' ? c.content : '', 'delete'));
    else if (c?.type === 'update' && typeof c.unified_diff === 'string') out.push({ path, kind: 'edit', diff: `--- a/${path.replace(/^\/+/, '')}\n+++ b/${path.replace(/^\/+/, '')}\n${c.unified_diff}` });
  }
  return out;
}

function messageText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.map((c) => {
    const b = asRecord(c);
    return (b?.type === 'input_text' || b?.type === 'output_text') && typeof b.text === 'string' ? b.text : '';
  }).join('');
}

/** `<environment_context>…</environment_context>` and the like: context Codex adds to the conversation. */
function isContextBlock(text: string): boolean {
  const m = /^\s*<([a-z_]+)>/.exec(text);
  return m !== null && text.trimEnd().endsWith(`</${m[1]}>`);
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? null;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function statusOf(output: string): 'ok' | 'error' | 'denied' {
  if (/rejected by (the )?user|user (denied|declined)|aborted by user/i.test(output)) return 'denied';
  const code = /(?:Process exited with code|Exit code:) (\d+)/.exec(output);
  return code && code[1] !== '0' ? 'error' : 'ok';
}

const usageOf = (value: unknown): TokenUsage | null => usageFrom(value, { cache_read_tokens: 'cached_input_tokens', reasoning_tokens: 'reasoning_output_tokens' });
