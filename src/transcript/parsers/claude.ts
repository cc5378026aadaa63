/**
 * `claude-jsonl`: Claude Code's session file (`<config>/projects/<cwd as a name>/<session>.jsonl`,
 * Claude Code 2.1.x). One JSON record a line: `user` (a person's prompt, or tool results with
 * `toolUseResult`), `assistant` (one content block a record, usage repeated per message id),
 * `cost-state` (running cost of the session) and bookkeeping records this parser skips by name.
 * A record type outside both lists is `unknown` (drift).
 */
import type { FileEdit, TokenUsage } from '../../protocol/transcripts.js';
import { diffFromHunks, diffWholeFile, type Hunk } from '../diff.js';
import { asRecord, parseTime, usageFrom, type HistoryParser, type TranscriptEvent } from '../events.js';

/** Record types Claude Code writes that carry nothing for a transcript. */
const SKIPPED = new Set([
  'mode', 'permission-mode', 'atis-latch', 'file-history-snapshot', 'file-history-delta', 'attachment', 'api-request-shape', 'api-request-blob',
  'api-request', 'last-prompt', 'tools-used', 'system', 'summary', 'custom-title', 'ai-title', 'agent-name', 'tag', 'queue-operation', 'progress', 'pr-link',
]);

export function createClaudeParser(): HistoryParser {
  let sessionId: string | null = null;
  const usageSeen = new Set<string>();
  let costSoFar = 0;
  return {
    feed(raw) {
      const rec = asRecord(raw);
      if (!rec) return [{ type: 'unknown', record_type: typeof raw }];
      const type = typeof rec.type === 'string' ? rec.type : '(none)';
      const events: TranscriptEvent[] = [];
      const at = parseTime(rec.timestamp);
      if (typeof rec.sessionId === 'string' && rec.sessionId !== sessionId && (type === 'user' || type === 'assistant')) {
        sessionId = rec.sessionId;
        events.push({ type: 'session', id: sessionId, at });
      }
      // Sub-agent (Task) conversations run inside the main turn: their records are the sub-agent's.
      if (rec.isSidechain === true) return events;
      if (type === 'user') events.push(...userEvents(rec, at));
      else if (type === 'assistant') events.push(...assistantEvents(rec, at, usageSeen));
      else if (type === 'cost-state') {
        const total = typeof rec.totalCostUSD === 'number' ? rec.totalCostUSD : null;
        if (total !== null && total > costSoFar) {
          events.push({ type: 'usage', usage: { input_tokens: 0, output_tokens: 0, cost_usd: total - costSoFar }, at });
          costSoFar = total;
        }
      } else if (!SKIPPED.has(type)) events.push({ type: 'unknown', record_type: type });
      return events;
    },
  };
}

function userEvents(rec: Record<string, unknown>, at: number | null): TranscriptEvent[] {
  const msg = asRecord(rec.message);
  if (!msg || rec.isMeta === true) return [];
  if (typeof msg.content === 'string') return isCommandEcho(msg.content) ? [] : [{ type: 'user', text: msg.content, at }];
  if (!Array.isArray(msg.content)) return [];
  const events: TranscriptEvent[] = [];
  const texts: string[] = [];
  for (const block of msg.content) {
    const b = asRecord(block);
    if (b?.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b?.type === 'tool_result' && typeof b.tool_use_id === 'string') {
      const output = resultText(b.content);
      const denied = b.is_error === true && /doesn't want to proceed|was rejected|user rejected/i.test(output);
      events.push({ type: 'tool_result', id: b.tool_use_id, output, status: denied ? 'denied' : b.is_error === true ? 'error' : 'ok', at, edits: editsOf(rec.toolUseResult) });
    }
  }
  if (texts.length && !events.length) events.unshift({ type: 'user', text: texts.join('\n'), at });
  return events;
}

/** Slash commands and their local output are kept as `<command-name>` wrappers, not as prompts. */
function isCommandEcho(text: string): boolean {
  return /^<(command-name|command-message|local-command-stdout|local-command-caveat)>/.test(text.trimStart());
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (asRecord(c)?.type === 'text' ? String(asRecord(c)?.text ?? '') : '')).join('');
}

function editsOf(result: unknown): FileEdit[] | undefined {
  const r = asRecord(result);
  const path = typeof r?.filePath === 'string' ? r.filePath : null;
  if (!r || !path) return undefined;
  if (Array.isArray(r.structuredPatch) && r.structuredPatch.length > 0) {
    const hunks = r.structuredPatch.filter((h): h is Hunk => Array.isArray(asRecord(h)?.lines));
    return [diffFromHunks(path, hunks, r.type === 'create' ? 'create' : 'edit')];
  }
  if (r.type === 'create' && typeof r.content === 'string') return [diffWholeFile(path, r.content, 'create')];
  return undefined;
}

function assistantEvents(rec: Record<string, unknown>, at: number | null, usageSeen: Set<string>): TranscriptEvent[] {
  const msg = asRecord(rec.message);
  if (!msg || !Array.isArray(msg.content)) return [];
  const model = typeof msg.model === 'string' && msg.model !== '<synthetic>' ? msg.model : undefined;
  const events: TranscriptEvent[] = [];
  for (const block of msg.content) {
    const b = asRecord(block);
    if (b?.type === 'text' && typeof b.text === 'string') events.push({ type: 'assistant_text', text: b.text, at, ...(model ? { model } : {}) });
    else if (b?.type === 'tool_use' && typeof b.id === 'string') events.push({ type: 'tool_call', id: b.id, name: String(b.name ?? ''), input: b.input ?? null, at });
  }
  // One API message is written as one record per content block, each with the message's usage.
  const id = typeof msg.id === 'string' ? msg.id : null;
  const usage = usageOf(msg.usage);
  if (usage && id && !usageSeen.has(id)) {
    usageSeen.add(id);
    events.push({ type: 'usage', usage, at });
  }
  return events;
}

const usageOf = (value: unknown): TokenUsage | null => usageFrom(value, { cache_read_tokens: 'cache_read_input_tokens', cache_write_tokens: 'cache_creation_input_tokens' });
