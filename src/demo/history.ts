/**
 * The Demo Agent's own conversation history (format `demo-jsonl`, read by specterm's
 * src/transcript/parsers/demo.ts): one JSON record a line in
 * `$DEMO_AGENT_HOME/sessions/<session id>.jsonl` (default `~/.demo-agent/sessions`), mode 0600.
 * Records: `session` (id, cwd, version), `user`, `assistant`, `tool_call`, `tool_result`, `usage`.
 * `--resume <id>` reads the file back and shows the conversation again; new records append to it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ToolItem, TranscriptItem } from './transcript.js';

/** A session id is a file name: letters, digits, `_` and `-` only. */
const SESSION_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** `$DEMO_AGENT_HOME/sessions`, else `~/.demo-agent/sessions`. */
export function historyDir(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const agentHome = env.DEMO_AGENT_HOME;
  return join(agentHome !== undefined && agentHome !== '' ? agentHome : join(home, '.demo-agent'), 'sessions');
}

/** A problem with `--session-id` / `--resume`, in a person's words; null when fine. */
export function checkSessionId(id: string, flag: string): string | null {
  return SESSION_ID_RE.test(id) ? null : `--${flag} takes a session id of 1–64 letters, digits, "_" or "-", got "${id}"`;
}

export class DemoHistory {
  #sessionId: string;
  #path: string;
  readonly #dir: string;
  #opened: { cwd: string; version: string } | null = null;
  #toolSeq = 0;
  #lastTurnTokens = 0;
  #failed = false;

  constructor(dir: string, sessionId: string = randomUUID()) {
    this.#dir = dir;
    this.#sessionId = sessionId;
    this.#path = join(dir, `${sessionId}.jsonl`);
  }

  get sessionId(): string {
    return this.#sessionId;
  }

  get path(): string {
    return this.#path;
  }

  /**
   * `/clear`: a new conversation in a new file with a new id, as Claude Code does — the old file
   * stays as it was (resuming it brings the old conversation back).
   */
  startNew(): void {
    this.#sessionId = randomUUID();
    this.#path = join(this.#dir, `${this.#sessionId}.jsonl`);
    this.#toolSeq = 0;
    this.#lastTurnTokens = 0;
    if (this.#opened) this.open(this.#opened.cwd, this.#opened.version);
  }

  /** Starts (or, resumed, continues) the file with a `session` record. */
  open(cwd: string, version: string): void {
    this.#opened = { cwd, version };
    try {
      mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    } catch {
      // appendFile below reports the failure the same way
    }
    this.#append({ type: 'session', session_id: this.sessionId, cwd, version });
  }

  /** A finished transcript item, as the session commits it. */
  record(item: TranscriptItem, tokens: number, model: string): void {
    switch (item.kind) {
      case 'user':
        // Slash commands are the agent's own controls, not the conversation.
        if (!item.text.trim().startsWith('/')) this.#append({ type: 'user', text: item.text });
        this.#lastTurnTokens = 0;
        return;
      case 'assistant':
        this.#append({ type: 'assistant', text: item.text, model });
        return;
      case 'tool': {
        const id = `tool_${++this.#toolSeq}`;
        this.#append({ type: 'tool_call', id, name: item.name, input: { command: item.command } });
        const status = item.status === 'done' ? 'ok' : item.status === 'declined' ? 'denied' : 'error';
        this.#append({ type: 'tool_result', id, status, output: item.output.join('\n') });
        return;
      }
      case 'worked':
        this.#append({ type: 'usage', output_tokens: Math.max(0, Math.round(tokens - this.#lastTurnTokens)) });
        this.#lastTurnTokens = tokens;
        return;
      default:
    }
  }

  #append(record: Record<string, unknown>): void {
    if (this.#failed) return;
    try {
      appendFileSync(this.path, `${JSON.stringify({ ...record, at: new Date().toISOString() })}\n`, { mode: 0o600 });
    } catch {
      // A history that cannot be written must not stop the agent; it simply keeps none.
      this.#failed = true;
    }
  }
}

/**
 * The conversation of an earlier session, for `--resume`: user, assistant and tool items.
 * Returns an error in a person's words when the session does not exist.
 */
export function readHistoryItems(dir: string, sessionId: string): { items: TranscriptItem[] } | { error: string } {
  let text: string;
  const path = join(dir, `${sessionId}.jsonl`);
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { error: `no session "${sessionId}" to resume (looked for ${path}); start without --resume, or pass an id the agent printed` };
  }
  const items: TranscriptItem[] = [];
  const calls = new Map<string, ToolItem>();
  for (const line of text.split('\n')) {
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (rec.type === 'user' && typeof rec.text === 'string') items.push({ kind: 'user', id: 0, text: rec.text });
    else if (rec.type === 'assistant' && typeof rec.text === 'string') items.push({ kind: 'assistant', id: 0, text: rec.text, continuation: false });
    else if (rec.type === 'tool_call' && typeof rec.id === 'string') {
      const input = rec.input as { command?: unknown } | null;
      const tool: ToolItem = { kind: 'tool', id: 0, name: String(rec.name ?? ''), command: String(input?.command ?? ''), status: 'done', output: [] };
      calls.set(rec.id, tool);
      items.push(tool);
    } else if (rec.type === 'tool_result' && typeof rec.id === 'string') {
      const tool = calls.get(rec.id);
      if (tool) {
        tool.output = typeof rec.output === 'string' && rec.output !== '' ? rec.output.split('\n') : [];
        if (rec.status === 'denied') tool.status = 'declined';
      }
    }
  }
  return { items };
}
