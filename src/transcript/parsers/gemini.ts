/**
 * `gemini-jsonl`: Gemini CLI's session file (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`,
 * Gemini CLI 0.61; before, one JSON document `gemini-json` rewritten whole). One JSON value a line:
 *
 * - the header `{sessionId, projectHash (sha256 of the project folder), startTime, kind}`;
 * - a message `{id, timestamp, type: user|gemini|info|error|warning, content, …}`. The CLI appends
 *   a message again, whole, each time it changes (a `gemini` message gets its `tokens`, then its
 *   `toolCalls` with their `result` and `status`): the later copy replaces the earlier, so this
 *   parser remembers what each id already said and emits only what is new;
 * - `{$set: {…}}` metadata (`lastUpdated`, `summary`, `sessionId` after a resume; `messages`
 *   replaces the conversation, which here means: read those messages too);
 * - `{$rewindTo: id}` — the person rewound: the transcript keeps what was said (events are not
 *   taken back).
 *
 * A `user` message of tool answers (`functionResponse` parts) or of context the CLI adds
 * (`<session_context>`, `<hook_context>`) is not a person's words.
 */
import { asRecord, count, parseTime, type HistoryParser, type TranscriptEvent } from '../events.js';
import { editsOf, outputOf, statusOf, textOf } from './genai-parts.js';

const SKIPPED_MESSAGES = new Set(['info', 'error', 'warning']);

interface Seen { text: boolean; tokens: boolean; calls: Set<string>; results: Set<string> }

export function createGeminiParser(): HistoryParser {
  const seen = new Map<string, Seen>();
  let sessionId: string | null = null;
  const session = (id: unknown, at: number | null, hash: unknown): TranscriptEvent[] => {
    if (typeof id !== 'string' || id === sessionId) return [];
    sessionId = id;
    return [{ type: 'session', id, at, ...(typeof hash === 'string' ? { cwd_sha256: hash } : {}) }];
  };
  const message = (m: Record<string, unknown>): TranscriptEvent[] => {
    const id = String(m.id);
    const at = parseTime(m.timestamp);
    const type = typeof m.type === 'string' ? m.type : '(none)';
    if (SKIPPED_MESSAGES.has(type)) return [];
    let s = seen.get(id);
    if (!s) seen.set(id, (s = { text: false, tokens: false, calls: new Set(), results: new Set() }));
    if (type === 'user') {
      const text = textOf(m.content).trim();
      if (s.text || !text || /^<(session_context|hook_context)>/.test(text)) return [];
      s.text = true;
      return [{ type: 'user', text, at }];
    }
    if (type !== 'gemini') return [{ type: 'unknown', record_type: `message:${type}` }];
    const out: TranscriptEvent[] = [];
    const model = typeof m.model === 'string' ? m.model : undefined;
    const text = textOf(m.content);
    if (!s.text && text.trim()) {
      s.text = true;
      out.push({ type: 'assistant_text', text, at, ...(model ? { model } : {}) });
    }
    const tokens = asRecord(m.tokens);
    if (!s.tokens && tokens) {
      s.tokens = true;
      const usage = { input_tokens: count(tokens.input) ?? 0, output_tokens: count(tokens.output) ?? 0, cache_read_tokens: count(tokens.cached) ?? 0, reasoning_tokens: count(tokens.thoughts) ?? 0 };
      out.push({ type: 'usage', usage, at });
    }
    for (const call of Array.isArray(m.toolCalls) ? m.toolCalls : []) out.push(...toolCall(asRecord(call), s, at));
    return out;
  };
  return {
    feed(raw) {
      const rec = asRecord(raw);
      if (!rec) return [{ type: 'unknown', record_type: Array.isArray(raw) ? 'array' : typeof raw }];
      if (typeof rec.sessionId === 'string' && typeof rec.projectHash === 'string') {
        return [...session(rec.sessionId, parseTime(rec.startTime), rec.projectHash), ...(Array.isArray(rec.messages) ? messages(rec.messages, message) : [])];
      }
      if (typeof rec.id === 'string') return message(rec);
      const set = asRecord(rec.$set);
      if (set) return [...session(set.sessionId, parseTime(set.lastUpdated), undefined), ...(Array.isArray(set.messages) ? messages(set.messages, message) : [])];
      if (typeof rec.$rewindTo === 'string') return [];
      return [{ type: 'unknown', record_type: Object.keys(rec).slice(0, 3).join(',') || '{}' }];
    },
  };
}

function messages(list: unknown[], message: (m: Record<string, unknown>) => TranscriptEvent[]): TranscriptEvent[] {
  return list.flatMap((m) => {
    const r = asRecord(m);
    return r && typeof r.id === 'string' ? message(r) : [];
  });
}

/** A call once (when first seen), its result once (when the call has ended). */
function toolCall(call: Record<string, unknown> | null, s: Seen, messageAt: number | null): TranscriptEvent[] {
  if (!call || typeof call.id !== 'string') return [];
  const out: TranscriptEvent[] = [];
  const at = parseTime(call.timestamp) ?? messageAt;
  if (!s.calls.has(call.id)) {
    s.calls.add(call.id);
    out.push({ type: 'tool_call', id: call.id, name: String(call.name ?? ''), input: call.args ?? null, at: messageAt ?? at });
  }
  const status = statusOf(call.status);
  if (status && !s.results.has(call.id)) {
    s.results.add(call.id);
    const edits = editsOf(call.resultDisplay, asRecord(call.args));
    out.push({ type: 'tool_result', id: call.id, output: outputOf(call.result), status, at, ...(edits.length ? { edits } : {}) });
  }
  return out;
}

