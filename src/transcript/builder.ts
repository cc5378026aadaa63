/**
 * Folds transcript events into the transcript model: a person's message opens a turn, what the
 * agent says and runs is appended to it in order, a tool's result completes its call, usage adds
 * up per turn and per session. Warnings are counted by code (and by record type for unknown
 * records). Incremental: feed events as the history grows, read `snapshot()` at any time.
 */
import type { TokenUsage, ToolCall, Transcript, TranscriptSource, TranscriptWarning, TranscriptWarningCode, Turn } from '../protocol/transcripts.js';
import { TRANSCRIPT_WARNING_CODES } from '../protocol/transcripts.js';
import type { TranscriptEvent } from './events.js';

/** A turn and the calls in it by id (a result finds its call without a scan). */
interface OpenTurn {
  turn: Turn;
  calls: Map<string, ToolCall>;
}

export class TranscriptBuilder {
  readonly #source: TranscriptSource;
  readonly #turns: OpenTurn[] = [];
  readonly #sessionIds: string[] = [];
  readonly #warnings = new Map<string, TranscriptWarning>();
  #sessionId: string | null = null;
  #usage: TokenUsage | null = null;
  /** Called with the index of each turn that changed (the store appends or rewrites it). */
  readonly #onTurn: ((turn: Turn) => void) | undefined;

  constructor(source: TranscriptSource, opts: { onTurn?: (turn: Turn) => void } = {}) {
    this.#source = source;
    this.#onTurn = opts.onTurn;
  }

  /** Applies parser events in order. */
  apply(events: readonly TranscriptEvent[]): void {
    const touched = new Set<OpenTurn>();
    for (const ev of events) {
      const t = this.#applyOne(ev);
      if (t) touched.add(t);
    }
    if (this.#onTurn) for (const t of touched) this.#onTurn(t.turn);
  }

  /** Counts a warning; `detail` is the first occurrence's specifics. */
  warn(code: TranscriptWarningCode, detail?: string, recordType?: string): void {
    const key = recordType === undefined ? code : `${code}:${recordType}`;
    const seen = this.#warnings.get(key);
    if (seen) {
      seen.count += 1;
      return;
    }
    const message = `${TRANSCRIPT_WARNING_CODES[code]}${detail ? `: ${detail}` : ''}`;
    this.#warnings.set(key, { code, message, count: 1, ...(recordType === undefined ? {} : { record_type: recordType }) });
  }

  snapshot(): Transcript {
    return {
      source: this.#source,
      native_session_ids: [...this.#sessionIds],
      turns: this.#turns.map((t) => structuredClone(t.turn)),
      usage: this.#usage ? { ...this.#usage } : null,
      warnings: [...this.#warnings.values()].map((w) => ({ ...w })),
    };
  }

  #applyOne(ev: TranscriptEvent): OpenTurn | null {
    switch (ev.type) {
      case 'session':
        if (ev.id !== this.#sessionId) {
          this.#sessionId = ev.id;
          if (!this.#sessionIds.includes(ev.id)) this.#sessionIds.push(ev.id);
        }
        return null;
      case 'user': {
        const open = this.#open(ev.at);
        open.turn.user = { text: ev.text, at: ev.at };
        return open;
      }
      case 'assistant_text': {
        const open = this.#current(ev.at);
        open.turn.items.push({ kind: 'text', text: ev.text, at: ev.at });
        if (ev.model) open.turn.model = ev.model;
        return this.#touch(open, ev.at);
      }
      case 'tool_call': {
        const open = this.#current(ev.at);
        const call: ToolCall = { kind: 'tool_call', id: ev.id, name: ev.name, input: ev.input, output: null, status: 'pending', at: ev.at, duration_ms: null, edits: [] };
        open.turn.items.push(call);
        open.calls.set(ev.id, call);
        return this.#touch(open, ev.at);
      }
      case 'tool_result': {
        let open: OpenTurn | undefined;
        for (let i = this.#turns.length - 1; i >= 0 && !open; i--) if (this.#turns[i]?.calls.has(ev.id)) open = this.#turns[i];
        const call = open?.calls.get(ev.id);
        if (!open || !call) return null;
        call.output = ev.output;
        call.status = ev.status;
        if (ev.edits) call.edits.push(...ev.edits);
        call.duration_ms = ev.duration_ms ?? (call.at !== null && ev.at !== null ? Math.max(0, ev.at - call.at) : null);
        return this.#touch(open, ev.at);
      }
      case 'usage': {
        const open = this.#current(ev.at);
        open.turn.usage = addUsage(open.turn.usage, ev.usage);
        this.#usage = addUsage(this.#usage, ev.usage);
        return open;
      }
      case 'unknown':
        this.warn('HISTORY_UNKNOWN_RECORD', `"${ev.record_type}"`, ev.record_type);
        return null;
    }
  }

  /** A new turn (a person spoke). */
  #open(at: number | null): OpenTurn {
    const turn: Turn = { index: this.#turns.length, native_session_id: this.#sessionId, user: null, items: [], usage: null, model: null, started_at: at, ended_at: at };
    const open = { turn, calls: new Map<string, ToolCall>() };
    this.#turns.push(open);
    return open;
  }

  /** The turn the agent is in (one without a person's message when the agent speaks first). */
  #current(at: number | null): OpenTurn {
    return this.#turns[this.#turns.length - 1] ?? this.#open(at);
  }

  #touch(open: OpenTurn, at: number | null): OpenTurn {
    if (at !== null) open.turn.ended_at = Math.max(open.turn.ended_at ?? at, at);
    return open;
  }
}

function addUsage(a: TokenUsage | null, b: TokenUsage): TokenUsage {
  if (!a) return { ...b };
  const sum = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const out: TokenUsage = { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens };
  for (const k of ['cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'cost_usd'] as const) {
    const v = sum(a[k], b[k]);
    if (v !== undefined) out[k] = k === 'cost_usd' ? Math.round(v * 1e6) / 1e6 : v;
  }
  return out;
}
