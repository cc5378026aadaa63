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
import type { Store } from '../store/index.js';
import { HistoryReader } from '../transcript/history-reader.js';
import { resolveHistoryPath } from '../transcript/history-path.js';
import type { EventLog } from './event-log.js';
import type { ManagedSession } from './managed-session.js';
import { ScreenTranscripts } from './screen-transcripts.js';

/** How often a running session's history is read for what the CLI appended. */
export const POLL_MS = 250;

interface Followed { reader: HistoryReader; timer: NodeJS.Timeout; changed: Turn[] }

export class SessionTranscripts {
  readonly #store: Store;
  readonly #events: EventLog;
  readonly #now: () => number;
  readonly #log: (level: 'warn', message: string) => void;
  readonly #followed = new Map<string, Followed>();
  /** Sessions whose history is not followed get their transcript from the screen. */
  readonly #screen: ScreenTranscripts;

  constructor(deps: { store: Store; events: EventLog; now: () => number; log: (level: 'warn', message: string) => void }) {
    this.#store = deps.store;
    this.#events = deps.events;
    this.#now = deps.now;
    this.#log = deps.log;
    this.#screen = new ScreenTranscripts(deps);
  }

  /** The person's message for the session's next turn (a screen transcript's `user`). */
  noteMessage(sessionId: string, text: string): void {
    this.#screen.noteMessage(sessionId, text);
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
    const nativeId = session.record.nativeSessionId;
    if (!history?.format || !history.path || !nativeId) return;
    const env = { ...process.env, ...session.env } as Record<string, string | undefined>;
    const home = env.HOME || os.homedir();
    const file = resolveHistoryPath(history.path, { env, home, cwd: session.record.cwd, sessionId: nativeId });
    if (!file) return;
    const followed: Followed = {
      reader: new HistoryReader({ format: history.format, path: file, homeDir: home, sessionId: nativeId, onTurn: (turn) => followed.changed.push(turn) }),
      timer: setInterval(() => this.poll(session.id), POLL_MS),
      changed: [],
    };
    followed.timer.unref();
    this.#followed.set(session.id, followed);
    this.poll(session.id);
  }

  /** Reads what the CLI appended now; stores and announces the turns that changed. */
  poll(sessionId: string): void {
    const f = this.#followed.get(sessionId);
    if (!f) return;
    try {
      f.reader.poll();
    } catch (error) {
      this.#log('warn', `transcript of ${sessionId}: ${(error as Error).message}`);
      return;
    }
    if (f.changed.length === 0) return;
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
  }

  stop(sessionId: string): void {
    const f = this.#followed.get(sessionId);
    if (!f) return;
    clearInterval(f.timer);
    try { f.reader.finish(); } catch {}
    this.#followed.delete(sessionId);
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
