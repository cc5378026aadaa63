/**
 * Each session's transcript, read from its CLI's own history (the spec's `native_history`) — or,
 * when there is none to follow, off the screen (./screen-transcripts.ts):
 * the launch picks the CLI's conversation id (`session_id.from: "launch_flag"`) and passes it,
 * the history file is followed incrementally while the session runs (a poll every
 * {@link POLL_MS}, and at once when a turn ends, so an answer is there right after the idle),
 * each changed turn is stored (searchable) and announced as a `transcript.turn` event. A resume
 * relaunches the CLI with the spec's `resume_args` and the same id: the transcript goes on.
 * @module
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Transcript, Turn } from '../protocol/index.js';
import type { HistoryFormat } from '../protocol/transcripts.js';
import type { Store } from '../store/index.js';
import { HistoryReader } from '../transcript/history-reader.js';
import { PARSED_FORMATS } from '../transcript/parsers/index.js';
import { resolveHistoryPath } from '../transcript/history-path.js';
import { findSessionHistoryFile } from '../transcript/newest-history-file.js';
import type { EventLog } from './event-log.js';
import type { ManagedSession } from './managed-session.js';
import { ScreenTranscripts } from './screen-transcripts.js';
import { TypedLines } from './typed-lines.js';

/** How often a running session's history is read for what the CLI appended. */
export const POLL_MS = 250;
/** How often a `newest_file` session's history is looked for until it appears (each look is bounded: newest-history-file.ts). */
export const DISCOVER_MS = 1_000;

/** How long after a new-session command (`/clear`) the CLI's new file is looked for. */
export const NEW_FILE_LOOK_MS = 60_000;

/**
 * A session's history being read, or (`reader` null) looked for: a `newest_file` CLI names its
 * file itself, so it is found after the start (`since`; by `id` when resuming). With a reader,
 * `find` looks for the new file the CLI goes on in after a `new_session_on` command.
 */
interface Followed { reader: HistoryReader | null; file: string | null; timer: NodeJS.Timeout; changed: Turn[]; find: { since: number; id: string | null; lastTry: number } | null }

export class SessionTranscripts {
  readonly #store: Store;
  readonly #events: EventLog;
  readonly #now: () => number;
  readonly #log: (level: 'warn', message: string) => void;
  readonly #followed = new Map<string, Followed>();
  /** Sessions whose history is not followed get their transcript from the screen. */
  readonly #screen: ScreenTranscripts;
  readonly #sessions = new Map<string, ManagedSession>();
  /** Sessions just started afresh with a `newest_file` spec: their old id is not theirs any more. */
  readonly #freshSince = new Map<string, number>();

  constructor(deps: { store: Store; events: EventLog; now: () => number; log: (level: 'warn', message: string) => void }) {
    this.#store = deps.store;
    this.#events = deps.events;
    this.#now = deps.now;
    this.#log = deps.log;
    this.#screen = new ScreenTranscripts(deps);
  }

  /** The last message typed into each session (a delegate's `{last_message}`). */
  readonly #lastMessage = new Map<string, string>();

  /** The last message typed into the session since the daemon started, else its transcript's last. */
  lastMessage(sessionId: string): string | null {
    return this.#lastMessage.get(sessionId) ?? this.#store.transcripts.lastTurn(sessionId)?.user?.text ?? null;
  }

  /** Lines being typed into each session key by key. */
  readonly #typed = new Map<string, TypedLines>();

  /** Keystrokes a person typed into the session: each line they complete counts as a message sent. */
  noteKeys(sessionId: string, data: string): void {
    let lines = this.#typed.get(sessionId);
    if (!lines) this.#typed.set(sessionId, (lines = new TypedLines()));
    for (const line of lines.feed(data)) this.noteMessage(sessionId, line);
  }

  /** The person's message for the session's next turn (a screen transcript's `user`). */
  noteMessage(sessionId: string, text: string): void {
    this.#lastMessage.set(sessionId, text);
    this.#screen.noteMessage(sessionId, text);
    // A command after which the CLI starts a new history file (Claude Code's /clear): the next
    // file that appears for the cwd is this session's from now on.
    const f = this.#followed.get(sessionId);
    const commands = this.#sessions.get(sessionId)?.spec.native_history?.new_session_on;
    if (f?.reader && commands?.includes(text.trim().split(/\s+/)[0] ?? '')) f.find = { since: this.#now(), id: null, lastTry: -Infinity };
  }

  /** The session's state moved (`session.state`): a session without a followed history reads its screen. */
  onState(session: ManagedSession, status: string): void {
    const screen = session.driver?.screen;
    if (screen && !this.#followed.has(session.id)) this.#screen.onState(session.id, status, screen);
  }

  /** A turn ended: its answer is read at once, from the history or from the screen. */
  onTurnFinished(session: ManagedSession): void {
    if (this.#followed.has(session.id)) {
      this.poll(session.id);
      return;
    }
    const screen = session.driver?.screen;
    if (screen) this.#screen.onTurnFinished(session.id, screen);
  }

  /**
   * The arguments that tie a launch to a conversation: the resume arguments when `resume` and the
   * session has an id; else the launch flag with a new id (recorded), or none.
   */
  launchArgs(session: ManagedSession, resume: boolean): string[] {
    const history = session.spec.native_history;
    const fill = (args: readonly string[], id: string) => args.map((a) => a.replaceAll('{session_id}', id));
    if (resume && session.record.nativeSessionId && history?.resume_args) return fill(history.resume_args, session.record.nativeSessionId);
    const rule = history?.session_id;
    if (history?.format && rule?.from === 'newest_file') this.#freshSince.set(session.id, this.#now());
    if (!history?.format || !rule || rule.from !== 'launch_flag' || !Array.isArray(rule.args)) return [];
    const id = randomUUID();
    this.#store.sessions.setNativeSessionId(session.id, id);
    session.record.nativeSessionId = id;
    return fill(rule.args, id);
  }

  /** Starts following the session's history file (if its spec has one this can find). */
  follow(session: ManagedSession): void {
    this.stop(session.id);
    const history = session.spec.native_history;
    const freshSince = this.#freshSince.get(session.id);
    this.#freshSince.delete(session.id);
    const nativeId = freshSince === undefined ? session.record.nativeSessionId : null;
    // A format with no parser yet: the session runs without a transcript (no reader to fail later).
    if (!history?.format || !history.path || !PARSED_FORMATS.includes(history.format)) return;
    const env = this.#envOf(session);
    const file = nativeId ? resolveHistoryPath(history.path, { env, home: env.HOME, cwd: session.record.cwd, sessionId: nativeId }) : null;
    // A template that names no one file (a glob, a date: the CLI picks the name) is searched.
    const discover = !file && (nativeId !== null || history.session_id?.from === 'newest_file');
    if (!file && !discover) return;
    const followed: Followed = {
      reader: null,
      file: null,
      timer: setInterval(() => this.poll(session.id), POLL_MS),
      changed: [],
      // A fresh start looks for a file created since the launch; a resume (or a daemon that
      // adopted a running session) for the one of its id, else one created since the session began.
      find: discover ? { since: freshSince ?? session.startedAt ?? session.record.createdAt, id: nativeId, lastTry: -Infinity } : null,
    };
    followed.timer.unref();
    this.#followed.set(session.id, followed);
    if (file) this.#read(followed, file, env.HOME, history.format, nativeId);
    this.#sessions.set(session.id, session);
    this.poll(session.id);
  }

  #envOf(session: ManagedSession): Record<string, string | undefined> & { HOME: string } {
    const env = { ...process.env, ...session.env } as Record<string, string | undefined>;
    return { ...env, HOME: env.HOME || os.homedir() };
  }

  #read(f: Followed, file: string, home: string, format: HistoryFormat, sessionId: string | null): void {
    f.file = file;
    f.reader = new HistoryReader({ format, path: file, homeDir: home, sessionId, onTurn: (turn) => f.changed.push(turn) });
  }

  /**
   * Looks for a `newest_file` session's history (at most every {@link DISCOVER_MS}, or `now`);
   * once found, its id is the session's `native_session_id` (what a resume passes back).
   */
  #discover(sessionId: string, f: Followed, now: boolean): void {
    const session = this.#sessions.get(sessionId);
    const history = session?.spec.native_history;
    if (!f.find || !session || !history?.format || !history.path) return;
    const t = this.#now();
    if (!now && t - f.find.lastTry < DISCOVER_MS) return;
    if (f.reader && t - f.find.since > NEW_FILE_LOOK_MS) {
      // The command did not start a new file after all: the old one goes on being read.
      f.find = null;
      return;
    }
    f.find.lastTry = t;
    const env = this.#envOf(session);
    // Files other sessions follow are theirs; after a new-session command, the old file is not the new one.
    const claimed = new Set([...this.#followed.values()].flatMap((o) => (o.file && (o !== f || f.reader) ? [o.file] : [])));
    const found = findSessionHistoryFile({ format: history.format, template: history.path, env, home: env.HOME, cwd: session.record.cwd, startedAt: f.find.since, sessionId: f.find.id, claimed, now: t });
    if (!found) return;
    f.find = null;
    if (session.record.nativeSessionId !== found.sessionId) {
      this.#store.sessions.setNativeSessionId(sessionId, found.sessionId);
      session.record.nativeSessionId = found.sessionId;
    }
    if (f.reader) {
      f.reader.continueIn(found.path, found.sessionId);
      f.file = found.path;
    } else {
      this.#read(f, found.path, env.HOME, history.format, found.sessionId);
    }
  }

  /** Reads what the CLI appended now; stores and announces the turns that changed. */
  poll(sessionId: string): void {
    const f = this.#followed.get(sessionId);
    if (!f) return;
    try {
      if (f.find) this.#discover(sessionId, f, false);
      if (!f.reader) return;
      f.reader.poll();
    } catch (error) {
      this.#log('warn', `transcript of ${sessionId}: ${(error as Error).message}`);
      return;
    }
    this.#flush(sessionId, f);
  }

  /** Stores and announces the turns that changed. */
  #flush(sessionId: string, f: Followed): void {
    if (!f.reader || f.changed.length === 0) return;
    const turns = [...f.changed];
    try {
      this.#store.transcripts.append(sessionId, f.reader.transcript(), turns, this.#now());
    } catch (error) {
      // A full disk (or a store fault) must not end the daemon from a timer: the turns stay
      // pending and are stored by the next poll that can.
      this.#log('warn', `transcript of ${sessionId} not stored yet: ${(error as Error).message}`);
      return;
    }
    f.changed.splice(0, turns.length);
    for (const turn of turns) {
      try {
        this.#events.append({ type: 'transcript.turn', session_id: sessionId, at: this.#now(), turn });
      } catch (error) {
        this.#log('warn', `transcript event of ${sessionId} not sent: ${(error as Error).message}`);
      }
    }
  }

  /** The session's transcript as stored (what was read so far). */
  get(sessionId: string): Transcript | null {
    this.poll(sessionId);
    return this.#store.transcripts.get(sessionId);
  }

  /** The last turn's answer: the agent's text, in order, after the person's message. */
  lastAnswer(sessionId: string): { text: string; turn: Turn } | null {
    this.poll(sessionId);
    // One row, not the whole transcript: answerTo asks every 25 ms.
    const turn = this.#store.transcripts.lastTurn(sessionId);
    if (!turn) return null;
    const text = turn.items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])).join('\n\n').trim();
    return { text, turn };
  }

  /** The session is gone: nothing of it is followed any more. */
  forget(sessionId: string): void {
    this.stop(sessionId);
    this.#screen.forget(sessionId);
    this.#typed.delete(sessionId);
    this.#lastMessage.delete(sessionId);
  }

  stop(sessionId: string): void {
    const f = this.#followed.get(sessionId);
    if (!f) return;
    clearInterval(f.timer);
    // A CLI that wrote its file just before it ended still gets its transcript.
    try {
      if (!f.reader) this.#discover(sessionId, f, true);
      f.reader?.finish();
    } catch {}
    // What the last read found is stored too (the agent's last turn before it exited).
    this.#flush(sessionId, f);
    this.#followed.delete(sessionId);
    this.#sessions.delete(sessionId);
  }

  close(): void {
    for (const id of [...this.#followed.keys()]) this.stop(id);
  }
}

/** How long after the idle the CLI may take to write the turn's end to its history. */
const ANSWER_WAIT_MS = 2_000;

/**
 * The answer to `text`: the transcript's last turn once it is the one `text` opened and the CLI
 * wrote its end (the history may land a little after the screen went idle); null when the
 * session keeps no transcript or the turn did not show up in time.
 */
export async function answerTo(transcripts: SessionTranscripts, sessionId: string, text: string): Promise<{ text: string; turn: Turn } | null> {
  const deadline = Date.now() + ANSWER_WAIT_MS;
  for (;;) {
    const answer = transcripts.lastAnswer(sessionId);
    if (answer && answer.turn.user?.text.trim() === text.trim() && answer.turn.ended_at !== null) return answer;
    if (Date.now() > deadline) return answer && answer.turn.user?.text.trim() === text.trim() ? answer : null;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
