/**
 * `opencode-sqlite`: OpenCode's conversation log (OpenCode 1.18, and Kilo Code 7.7, its fork).
 * Both keep every session in one SQLite database (`~/.local/share/opencode/opencode.db`,
 * `~/.local/share/kilo/kilo.db`); its `event` table is an append-only log per session
 * (`aggregate_id` = the session id, `seq` counting up). The database follower hands this parser
 * each event as `{type, data}` in `seq` order:
 * `session.created.1` / `session.updated.1` (the session), `message.updated.1` (a message's role
 * and times: the same message again as it progresses), `message.part.updated.1` (a part of a
 * message — text, tool call, step start/finish with tokens — again each time it changes).
 *
 * A part is shown once it is final, in the order the parts were created: a text part when it has
 * its end time, a tool call once its input is known (status running or later), its result when
 * completed or failed. A part still being written holds back the parts created after it, so a
 * streamed sentence before a tool call stays before it.
 */
import type { FileEdit, TokenUsage, ToolCallStatus } from '../../protocol/transcripts.js';
import { diffFromUnified, diffWholeFile } from '../diff.js';
import { asRecord, count, parseTime, type HistoryParser, type TranscriptEvent } from '../events.js';

/** Events a transcript does not show (bookkeeping): known, so not drift. */
const SKIPPED_EVENTS = new Set(['session.updated.1', 'session.deleted.1', 'message.removed.1', 'message.part.removed.1', 'session.compacted.1', 'session.diff.1', 'session.error.1', 'todo.updated.1']);
/** Parts that say nothing a transcript shows. */
const SKIPPED_PARTS = new Set(['step-start', 'snapshot', 'patch', 'reasoning', 'agent', 'retry', 'compaction', 'subtask', 'file']);
const DENIED = /rejected permission|user (?:dismissed|denied|rejected)/i;

interface Part { id: string; messageId: string; data: Record<string, unknown> }

export function createOpenCodeParser(): HistoryParser {
  /** Role of each message by id (a part is a person's words or the agent's by its message). */
  const roles = new Map<string, string>();
  const models = new Map<string, string>();
  /** Parts not shown yet, in creation order; `byId` finds one when it is updated. */
  const queue: Part[] = [];
  const byId = new Map<string, Part>();
  /** Parts already shown: a later update of one is ignored (a tool call's result excepted). */
  const done = new Set<string>();
  /** User messages whose words were given (a message may carry more than one text part). */
  const spoken = new Set<string>();
  /** Assistant messages whose error was told. */
  const failed = new Set<string>();
  /** Tool calls shown without their result yet. */
  const open = new Map<string, Part>();
  return {
    feed(raw) {
      const rec = asRecord(raw);
      const type = typeof rec?.type === 'string' ? rec.type : '(none)';
      const data = asRecord(rec?.data);
      if (!rec || !data) return [{ type: 'unknown', record_type: type }];
      const at = parseTime(data.time);
      switch (type) {
        case 'session.created.1': {
          const id = asRecord(data.info)?.id ?? data.sessionID;
          return typeof id === 'string' ? [{ type: 'session', id, at: parseTime(asRecord(asRecord(data.info)?.time)?.created) }] : [];
        }
        case 'message.updated.1': {
          const info = asRecord(data.info);
          if (typeof info?.id === 'string' && typeof info.role === 'string') roles.set(info.id, info.role);
          if (typeof info?.id === 'string' && typeof info.modelID === 'string') models.set(info.id, info.modelID);
          // A finished message releases its parts even if one never got an end time (an abort).
          const finished = asRecord(info?.time)?.completed !== undefined && typeof info?.id === 'string' ? info.id : null;
          return [...flush(finished), ...failure(info)];
        }
        case 'message.part.updated.1': {
          const p = asRecord(data.part);
          if (!p || typeof p.id !== 'string' || typeof p.messageID !== 'string') return [{ type: 'unknown', record_type: `${type}:(no part)` }];
          const kind = String(p.type);
          if (SKIPPED_PARTS.has(kind)) return flush(null);
          if (kind !== 'text' && kind !== 'tool' && kind !== 'step-finish') return [{ type: 'unknown', record_type: `part:${kind}` }, ...flush(null)];
          const openCall = open.get(p.id);
          if (openCall) {
            openCall.data = p;
            return [...result(openCall, at), ...flush(null)];
          }
          if (done.has(p.id)) return flush(null);
          const known = byId.get(p.id);
          if (known) known.data = p;
          else {
            const part = { id: p.id, messageId: p.messageID, data: p };
            byId.set(p.id, part);
            queue.push(part);
          }
          return flush(null);
        }
        default:
          return SKIPPED_EVENTS.has(type) ? [] : [{ type: 'unknown', record_type: type }];
      }
    },
  };

  /** An answer that ended in an error or an interrupt says so after what was said, once. */
  function failure(info: Record<string, unknown> | null): TranscriptEvent[] {
    const error = asRecord(info?.error);
    if (!error || info?.role !== 'assistant' || typeof info.id !== 'string' || failed.has(info.id)) return [];
    failed.add(info.id);
    const message = asRecord(error.data)?.message;
    const model = models.get(info.id);
    return [{ type: 'assistant_text', text: `(${String(error.name ?? 'error')}: ${typeof message === 'string' ? message : 'no message'})`, at: parseTime(asRecord(info.time)?.completed), ...(model ? { model } : {}) }];
  }

  /** Shows the parts at the front of the queue that are final; `finished`: a message whose parts are all final now. */
  function flush(finished: string | null): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    while (queue.length > 0) {
      const part = queue[0] as Part;
      const events = show(part, part.messageId === finished);
      if (events === null) break;
      out.push(...events);
      queue.shift();
      byId.delete(part.id);
      done.add(part.id);
    }
    return out;
  }

  /** The events of a part that is final, or null while it is still being written. */
  function show(part: Part, force: boolean): TranscriptEvent[] | null {
    const p = part.data;
    const role = roles.get(part.messageId);
    const time = asRecord(p.time);
    if (p.type === 'text') {
      if (role === 'user') {
        if (p.synthetic === true || spoken.has(part.messageId)) return [];
        spoken.add(part.messageId);
        return [{ type: 'user', text: String(p.text ?? ''), at: parseTime(time?.start) }];
      }
      if (time?.end === undefined && !force) return null;
      const model = models.get(part.messageId);
      return p.text ? [{ type: 'assistant_text', text: String(p.text), at: parseTime(time?.end ?? time?.start), ...(model ? { model } : {}) }] : [];
    }
    if (p.type === 'step-finish') {
      const usage = usageOf(p);
      return usage ? [{ type: 'usage', usage, at: null }] : [];
    }
    const state = asRecord(p.state);
    if (state?.status === 'pending' && !force) return null;
    const id = typeof p.callID === 'string' ? p.callID : part.id;
    const events: TranscriptEvent[] = [{ type: 'tool_call', id, name: String(p.tool ?? ''), input: state?.input ?? null, at: parseTime(asRecord(state?.time)?.start) }];
    const finished = result(part, null);
    if (finished.length === 0) open.set(part.id, part);
    return [...events, ...finished];
  }

  /** A tool call's result once it completed or failed. */
  function result(part: Part, at: number | null): TranscriptEvent[] {
    const p = part.data;
    const state = asRecord(p.state);
    if (state?.status !== 'completed' && state?.status !== 'error') return [];
    open.delete(part.id);
    const id = typeof p.callID === 'string' ? p.callID : part.id;
    const failed = state.status === 'error';
    const output = failed ? String(state.error ?? '') : String(state.output ?? '');
    const status: ToolCallStatus = failed ? (DENIED.test(output) ? 'denied' : 'error') : 'ok';
    const edits = failed ? [] : editsOf(String(p.tool ?? ''), asRecord(state.input), asRecord(state.metadata));
    return [{ type: 'tool_result', id, output, status, at: parseTime(asRecord(state.time)?.end) ?? at, ...(edits.length ? { edits } : {}) }];
  }
}

function editsOf(tool: string, input: Record<string, unknown> | null, metadata: Record<string, unknown> | null): FileEdit[] {
  const path = typeof input?.filePath === 'string' ? input.filePath : null;
  if (!path) return [];
  if (typeof metadata?.diff === 'string' && metadata.diff.includes('@@')) return [diffFromUnified(path, metadata.diff)];
  // A write of a new file: the content is the diff. OpenCode keeps no copy of a file a write replaced.
  if (tool === 'write' && metadata?.exists === false && typeof input?.content === 'string') return [diffWholeFile(path, input.content, 'create')];
  return [];
}

function usageOf(p: Record<string, unknown>): TokenUsage | null {
  const t = asRecord(p.tokens);
  const input = count(t?.input);
  const output = count(t?.output);
  if (!t || input === undefined || output === undefined) return null;
  const usage: TokenUsage = { input_tokens: input, output_tokens: output };
  const cache = asRecord(t.cache);
  const read = count(cache?.read);
  const write = count(cache?.write);
  const reasoning = count(t.reasoning);
  if (read !== undefined) usage.cache_read_tokens = read;
  if (write !== undefined) usage.cache_write_tokens = write;
  if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
  if (typeof p.cost === 'number' && Number.isFinite(p.cost) && p.cost >= 0) usage.cost_usd = p.cost;
  return usage;
}
