/**
 * `demo-jsonl`: the Demo Agent's history (src/demo/history.ts): one `{type, at, …}` record a line —
 * `session`, `user`, `assistant`, `tool_call`, `tool_result`, `usage`.
 */
import { asRecord, count, parseTime, type HistoryParser, type TranscriptEvent } from '../events.js';

const STATUSES = new Set(['ok', 'error', 'denied']);

export function createDemoParser(): HistoryParser {
  return {
    feed(raw): TranscriptEvent[] {
      const rec = asRecord(raw);
      const type = typeof rec?.type === 'string' ? rec.type : '(none)';
      if (!rec) return [{ type: 'unknown', record_type: type }];
      const at = parseTime(rec.at);
      const text = typeof rec.text === 'string' ? rec.text : '';
      switch (type) {
        case 'session':
          return typeof rec.session_id === 'string' ? [{ type: 'session', id: rec.session_id, at, ...(typeof rec.cwd === 'string' ? { cwd: rec.cwd } : {}) }] : [];
        case 'user':
          return [{ type: 'user', text, at }];
        case 'assistant':
          return [{ type: 'assistant_text', text, at, ...(typeof rec.model === 'string' ? { model: rec.model } : {}) }];
        case 'tool_call':
          return typeof rec.id === 'string' ? [{ type: 'tool_call', id: rec.id, name: String(rec.name ?? ''), input: rec.input ?? null, at }] : [];
        case 'tool_result': {
          if (typeof rec.id !== 'string') return [];
          const status = STATUSES.has(rec.status as string) ? (rec.status as 'ok' | 'error' | 'denied') : 'ok';
          return [{ type: 'tool_result', id: rec.id, output: typeof rec.output === 'string' ? rec.output : '', status, at }];
        }
        case 'usage':
          return [{ type: 'usage', usage: { input_tokens: count(rec.input_tokens) ?? 0, output_tokens: count(rec.output_tokens) ?? 0 }, at }];
        default:
          return [{ type: 'unknown', record_type: type }];
      }
    },
  };
}
