/**
 * `qwen-jsonl`: Qwen Code's session file (`${QWEN_HOME:-~/.qwen}/projects/<cwd, every character
 * outside [A-Za-z0-9] as '-'>/chats/<session id>.jsonl`, Qwen Code 0.15). One record a line, each
 * `{uuid, parentUuid, sessionId, timestamp, type, cwd, version, …}`:
 *
 * - `user`: `message.parts` the person typed;
 * - `assistant`: `message.parts` — text (thoughts left out) and `functionCall`s — with the
 *   response's `usageMetadata`;
 * - `tool_result`: `message.parts` with the `functionResponse`, and `toolCallResult` (`status`,
 *   `resultDisplay` with a file tool's patch);
 * - `system`: bookkeeping (`attribution_snapshot`, `ui_telemetry`, …), skipped.
 */
import { asRecord, count, parseTime, type HistoryParser, type TranscriptEvent } from '../events.js';
import { editsOf, outputOf, statusOf, textOf } from './genai-parts.js';

export function createQwenParser(): HistoryParser {
  let sessionId: string | null = null;
  /** Each call's arguments: the edit's file path is there (the result names the file bare). */
  const argsById = new Map<string, Record<string, unknown> | null>();
  return {
    feed(raw) {
      const rec = asRecord(raw);
      const type = typeof rec?.type === 'string' ? rec.type : '(none)';
      if (!rec) return [{ type: 'unknown', record_type: type }];
      const at = parseTime(rec.timestamp);
      const out: TranscriptEvent[] = [];
      if (typeof rec.sessionId === 'string' && rec.sessionId !== sessionId) {
        sessionId = rec.sessionId;
        out.push({ type: 'session', id: rec.sessionId, at, ...(typeof rec.cwd === 'string' ? { cwd: rec.cwd } : {}) });
      }
      const parts = asRecord(rec.message)?.parts;
      switch (type) {
        case 'user': {
          const text = textOf(parts).trim();
          if (text) out.push({ type: 'user', text, at });
          return out;
        }
        case 'assistant':
          return [...out, ...assistant(parts, rec, at, argsById)];
        case 'tool_result':
          return [...out, ...toolResults(parts, asRecord(rec.toolCallResult), at, argsById)];
        case 'system':
          return out;
        default:
          return [...out, { type: 'unknown', record_type: type }];
      }
    },
  };
}

function assistant(parts: unknown, rec: Record<string, unknown>, at: number | null, argsById: Map<string, Record<string, unknown> | null>): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  const text = textOf(parts);
  if (text.trim()) out.push({ type: 'assistant_text', text, at, ...(typeof rec.model === 'string' ? { model: rec.model } : {}) });
  for (const p of Array.isArray(parts) ? parts : []) {
    const call = asRecord(asRecord(p)?.functionCall);
    if (!call || typeof call.id !== 'string') continue;
    argsById.set(call.id, asRecord(call.args));
    out.push({ type: 'tool_call', id: call.id, name: String(call.name ?? ''), input: call.args ?? null, at });
  }
  const u = asRecord(rec.usageMetadata);
  if (u) out.push({ type: 'usage', usage: { input_tokens: count(u.promptTokenCount) ?? 0, output_tokens: count(u.candidatesTokenCount) ?? 0, cache_read_tokens: count(u.cachedContentTokenCount) ?? 0, reasoning_tokens: count(u.thoughtsTokenCount) ?? 0 }, at });
  return out;
}

function toolResults(parts: unknown, result: Record<string, unknown> | null, at: number | null, argsById: Map<string, Record<string, unknown> | null>): TranscriptEvent[] {
  return (Array.isArray(parts) ? parts : []).flatMap((p): TranscriptEvent[] => {
    const response = asRecord(asRecord(p)?.functionResponse);
    const id = typeof response?.id === 'string' ? response.id : typeof result?.callId === 'string' ? result.callId : null;
    if (!response || !id) return [];
    const mine = result?.callId === undefined || result.callId === id;
    const edits = mine ? editsOf(result?.resultDisplay, argsById.get(id) ?? null) : [];
    argsById.delete(id);
    return [{ type: 'tool_result', id, output: outputOf([p]), status: (mine ? statusOf(result?.status) : undefined) ?? 'ok', at, ...(edits.length ? { edits } : {}) }];
  });
}
