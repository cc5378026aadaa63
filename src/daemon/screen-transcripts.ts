/**
 * Transcripts read off the screen, for sessions whose CLI keeps no history specterm can read (a
 * spec without `native_history`, a format with no parser, a history file not found): each turn's
 * answer is the rows the agent added between the idle screen before it and the idle screen after
 * it, without the chrome (src/transcript/screen-turns.ts). The person's message is the one sent
 * through specterm for that turn (null when typed at the keyboard). Stored and announced like a
 * native transcript, marked `source: {kind: "screen"}`.
 * @module
 */
import type { Transcript, TranscriptWarning, Turn } from '../protocol/index.js';
import { TRANSCRIPT_WARNING_CODES } from '../protocol/transcripts.js';
import type { Store } from '../store/index.js';
import { screenAnswer, type IdleScreen } from '../transcript/screen-turns.js';
import type { TerminalScreen } from '../terminal/index.js';
import type { EventLog } from './event-log.js';

interface ScreenTrack {
  /** The screen when the session was last idle (the start of the next turn's answer). */
  idle: IdleScreen | null;
  /** The message sent for the coming turn, and when. */
  message: { text: string; at: number } | null;
  startedAt: number | null;
  turns: number;
  cut: number;
}

export class ScreenTranscripts {
  readonly #store: Store;
  readonly #events: EventLog;
  readonly #now: () => number;
  readonly #log: (level: 'warn', message: string) => void;
  readonly #tracks = new Map<string, ScreenTrack>();

  constructor(deps: { store: Store; events: EventLog; now: () => number; log: (level: 'warn', message: string) => void }) {
    this.#store = deps.store;
    this.#events = deps.events;
    this.#now = deps.now;
    this.#log = deps.log;
  }

  #track(sessionId: string): ScreenTrack {
    let track = this.#tracks.get(sessionId);
    if (!track) {
      const stored = this.#store.transcripts.get(sessionId);
      const cut = stored?.warnings.find((w) => w.code === 'SCREEN_TURN_CUT')?.count ?? 0;
      track = { idle: null, message: null, startedAt: null, turns: stored?.source.kind === 'screen' ? stored.turns.length : 0, cut };
      this.#tracks.set(sessionId, track);
    }
    return track;
  }

  /** The person's message for the session's next turn (sent through specterm). */
  noteMessage(sessionId: string, text: string): void {
    this.#track(sessionId).message = { text, at: this.#now() };
  }

  /** The session's state moved: an idle screen is where the next turn's answer starts. */
  onState(sessionId: string, status: string, screen: TerminalScreen): void {
    const track = this.#track(sessionId);
    if (status === 'idle' && track.startedAt === null) track.idle = idleScreenOf(screen);
    else if (status === 'generating') track.startedAt ??= this.#now();
  }

  /** A turn ended: its answer is read off the screen, stored and announced. */
  onTurnFinished(sessionId: string, screen: TerminalScreen): void {
    const track = this.#track(sessionId);
    const after = idleScreenOf(screen);
    const message = track.message;
    const answer = screenAnswer({ before: track.idle, after, rows: (from, to) => screen.rowsById(from, to), message: message?.text ?? null });
    const now = this.#now();
    const turn: Turn = {
      index: track.turns, native_session_id: null, user: message ? { text: message.text, at: message.at } : null,
      items: answer.text === '' ? [] : [{ kind: 'text', text: answer.text, at: now }],
      usage: null, model: null, started_at: track.startedAt ?? message?.at ?? null, ended_at: now,
    };
    track.idle = after;
    track.message = null;
    track.startedAt = null;
    if (answer.cut) track.cut += 1;
    const warnings: TranscriptWarning[] = track.cut > 0 ? [{ code: 'SCREEN_TURN_CUT', message: TRANSCRIPT_WARNING_CODES.SCREEN_TURN_CUT, count: track.cut }] : [];
    const summary: Pick<Transcript, 'source' | 'native_session_ids' | 'usage' | 'warnings'> = { source: { kind: 'screen' }, native_session_ids: [], usage: null, warnings };
    try {
      this.#store.transcripts.append(sessionId, summary, [turn], now);
    } catch (error) {
      // A full disk must not end the daemon: this turn is lost to the transcript, and says so.
      this.#log('warn', `screen transcript of ${sessionId}: turn ${turn.index} not stored: ${(error as Error).message}`);
      return;
    }
    track.turns += 1;
    try {
      this.#events.append({ type: 'transcript.turn', session_id: sessionId, at: now, turn });
    } catch (error) {
      this.#log('warn', `transcript event of ${sessionId} not sent: ${(error as Error).message}`);
    }
  }

  forget(sessionId: string): void {
    this.#tracks.delete(sessionId);
  }
}

function idleScreenOf(screen: TerminalScreen): IdleScreen {
  return { viewport: [...screen.viewportLines()], topId: screen.viewportTopId() };
}
