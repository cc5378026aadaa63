/**
 * Recordings made from the dashboard: a session's output, and as `i` events what the daemon
 * typed into it (messages, keys, button presses, passthrough input: recordings-input.ts), as an
 * asciicast v2 file under `<state dir>/recordings/` (dir 0700, files 0600 — a recording holds
 * everything the agent printed and everything typed to it), and beside it `<name>.spec.json`, the spec the session ran, so a replay judges
 * the screen with the rules that were live (a later hot reload does not rewrite history).
 *
 * A recording starts mid-session: its first event redraws the screen as it was (the same ANSI
 * serializer the terminal snapshots use), then every output chunk follows. A replay's driver
 * starts in the spec's initial state, so the redrawn screen is held alone for a lead-in (the
 * longest time rule out of the initial state, + 0.5 s) before the live output, and a marker
 * `live` says where the lead-in ends: the replay has settled into the live state by then. Names are checked
 * here as well as at the edge: a path is never built from anything but a plain word.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { initialState, outgoingTransitions } from '../core/spec/model.js';
import type { CliSpecV4 } from '../core/spec/types.js';
import type { RecordingInfo } from '../protocol/recordings.js';
import { fieldError, SpectermError } from '../protocol/index.js';
import { AsciicastRecorder, parseAsciicast, type Asciicast } from '../recording/index.js';
import { writePrivateFile } from '../fs/private-file.js';
import type { EventLog } from './event-log.js';
import type { ManagedSession } from './managed-session.js';
import { serializeScreenAnsi } from './screen-ansi.js';

export type RecordingsErrorCode = 'RECORDING_NOT_FOUND' | 'RECORDING_ACTIVE' | 'NOT_RECORDING' | 'RECORDING_NAME_TAKEN' | 'RECORDING_UNREADABLE' | 'RECORDING_NAME_INVALID' | 'RECORDING_AT_OUT_OF_RANGE';

/** The request field each refusal is about, when it is about one. */
const FIELDS: Partial<Record<RecordingsErrorCode, string>> = { RECORDING_NAME_TAKEN: '/name', RECORDING_NAME_INVALID: '/name', RECORDING_AT_OUT_OF_RANGE: '/at_ms' };

export class RecordingsError extends SpectermError {
  declare readonly code: RecordingsErrorCode;
  constructor(code: RecordingsErrorCode, message: string) {
    super(fieldError(code, message, FIELDS[code]));
    this.name = 'RecordingsError';
  }
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const CAST = '.cast';
const SPEC = '.spec.json';
/** Beside each recording: the session it was made from (`{session_id, session_name}`), for the list's link. */
const SESSION = '.session.json';

interface Active {
  name: string;
  sessionId: string;
  specId: string;
  createdAt: number;
  recorder: AsciicastRecorder;
  dispose: () => void;
}

/** A loaded recording: the cast and the spec it is judged by. */
export interface LoadedRecording { name: string; cast: Asciicast; spec: CliSpecV4 }

export class Recordings {
  readonly dir: string;
  readonly #now: () => number;
  readonly #active = new Map<string, Active>();

  readonly #unsubscribe: () => void;

  /** Watches `events` so a recording ends (and is kept) when its session exits or is removed. */
  constructor(stateDir: string, now: () => number, events: EventLog) {
    this.dir = path.join(stateDir, 'recordings');
    this.#now = now;
    this.#unsubscribe = events.subscribe((event) => {
      if ((event.type === 'session.exited' || event.type === 'session.removed') && this.#active.has(event.session_id)) this.stop(event.session_id);
    });
  }

  /** Starts recording `session` (running) under `name`. */
  start(session: ManagedSession, requested: string | undefined): RecordingInfo {
    const driver = session.driver;
    const transport = session.transport;
    if (!driver || !transport || !session.isRunning) throw new RecordingsError('NOT_RECORDING', `session ${session.id} is not running; restart it to record it`);
    if (this.#active.has(session.id)) throw new RecordingsError('RECORDING_ACTIVE', `session ${session.id} is already being recorded as "${this.#active.get(session.id)!.name}"; stop that recording first`);
    const createdAt = this.#now();
    const name = requested === undefined ? this.#freeName(defaultRecordingName(session.record.name ?? session.id, createdAt)) : checkedName(requested);
    if (this.#taken(name)) {
      throw new RecordingsError('RECORDING_NAME_TAKEN', `a recording named "${name}" exists; choose another name or delete it`);
    }
    this.#ensureDir();
    writePrivateFile(this.#file(name, SPEC), JSON.stringify(driver.getSpec()));
    writePrivateFile(this.#file(name, SESSION), JSON.stringify({ session_id: session.id, session_name: session.record.name }));
    const cols = driver.screen.cols;
    const rows = driver.screen.rows;
    let leadIn = 0;
    // Held at the start until the first frame is written: serializing the screen takes real time
    // (tens of ms), and a first frame after 0 s left the player's 0 s blank.
    let heldAt: number | null = createdAt;
    const recorder = AsciicastRecorder.open(this.#file(name, CAST), {
      cols, rows, clock: () => heldAt ?? this.#now() + leadIn, timestamp: Math.floor(createdAt / 1000), title: `${session.record.name ?? session.id} (${driver.getSpec().id})`, env: { TERM: 'xterm-256color' },
    });
    // The screen as it is now, so the replay starts where the person pressed "record".
    recorder.output(`\x1b[2J\x1b[H${serializeScreenAnsi(driver.screen)}`);
    heldAt = null;
    leadIn = leadInMs(driver.getSpec());
    recorder.marker('live');
    const output = transport.onData((chunk) => { if (!recorder.isClosed) recorder.output(chunk); });
    const input = session.input.onInput((data) => { if (!recorder.isClosed) recorder.input(data); });
    const dispose = () => { output.dispose(); input.dispose(); };
    const active: Active = { name, sessionId: session.id, specId: String(driver.getSpec().id), createdAt, recorder, dispose };
    this.#active.set(session.id, active);
    return this.#activeInfo(active);
  }

  /** Stops `sessionId`'s recording and commits its file. */
  stop(sessionId: string): RecordingInfo {
    const active = this.#active.get(sessionId);
    if (!active) throw new RecordingsError('NOT_RECORDING', `session ${sessionId} is not being recorded; start a recording first`);
    this.#active.delete(sessionId);
    active.dispose();
    // A marker at the stop: the recording covers until now, so rules that fire on time after the
    // last output (holds, `elapsed`) fire inside it when it is replayed.
    active.recorder.marker('stop');
    active.recorder.close();
    return this.#info(active.name);
  }

  /** Which recording `sessionId` is writing, if any. */
  activeFor(sessionId: string): RecordingInfo | null {
    const active = this.#active.get(sessionId);
    return active ? this.#activeInfo(active) : null;
  }

  /** Every recording, the active ones first, then newest first. */
  list(): RecordingInfo[] {
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.dir).filter((f) => f.endsWith(CAST)).map((f) => f.slice(0, -CAST.length)).filter((n) => NAME.test(n));
    } catch {}
    const done: RecordingInfo[] = [];
    for (const name of names) {
      try { done.push(this.#info(name)); } catch {}
    }
    done.sort((a, b) => b.created_at - a.created_at || a.name.localeCompare(b.name));
    return [...[...this.#active.values()].map((a) => this.#activeInfo(a)), ...done];
  }

  /** Reads recording `name` and its spec (a truncated tail — a crash mid-write — is tolerated). */
  load(requested: string): LoadedRecording {
    const name = checkedName(requested);
    const text = this.castText(name);
    let specText: string;
    try {
      specText = fs.readFileSync(this.#file(name, SPEC), 'utf8');
    } catch {
      throw notFound(name);
    }
    try {
      return { name, cast: parseAsciicast(text, { tolerateTruncatedTail: true }), spec: JSON.parse(specText) as CliSpecV4 };
    } catch (error) {
      throw new RecordingsError('RECORDING_UNREADABLE', `recording "${name}" cannot be read (${(error as Error).message}); delete it from ${this.dir}`);
    }
  }

  /** Recording `name`'s asciicast file as it is on disk (the dashboard's `.cast` download). */
  castText(requested: string): string {
    const name = checkedName(requested);
    if ([...this.#active.values()].some((a) => a.name === name)) throw new RecordingsError('RECORDING_ACTIVE', `recording "${name}" is still being written; stop it first`);
    try {
      return fs.readFileSync(this.#file(name, CAST), 'utf8');
    } catch {
      throw notFound(name);
    }
  }

  /** Stops every recording (the daemon is closing): each file is committed as it stands. */
  close(): void {
    this.#unsubscribe();
    for (const id of [...this.#active.keys()]) this.stop(id);
  }

  #info(name: string): RecordingInfo {
    const file = this.#file(name, CAST);
    const stat = fs.statSync(file);
    const cast = parseAsciicast(fs.readFileSync(file, 'utf8'), { tolerateTruncatedTail: true });
    const last = cast.events.at(-1);
    const header = cast.header;
    const createdAt = header.timestamp !== undefined ? header.timestamp * 1000 : Math.round(stat.mtimeMs);
    let specId = '';
    try { specId = String((JSON.parse(fs.readFileSync(this.#file(name, SPEC), 'utf8')) as { id?: unknown }).id ?? ''); } catch {}
    const from = this.#sessionOf(name);
    return { name, ...from, spec_id: specId, active: false, bytes: stat.size, created_at: createdAt, duration_ms: last ? Math.round(last.t * 1000) : 0 };
  }

  #activeInfo(a: Active): RecordingInfo {
    return { name: a.name, ...this.#sessionOf(a.name), spec_id: a.specId, active: true, bytes: 0, created_at: a.createdAt, duration_ms: null };
  }

  /** The session a recording was made from; nulls for one made before this was kept. */
  #sessionOf(name: string): { session_id: string | null; session_name: string | null } {
    try {
      const kept = JSON.parse(fs.readFileSync(this.#file(name, SESSION), 'utf8')) as { session_id?: unknown; session_name?: unknown };
      return { session_id: typeof kept.session_id === 'string' ? kept.session_id : null, session_name: typeof kept.session_name === 'string' ? kept.session_name : null };
    } catch {
      return { session_id: null, session_name: null };
    }
  }

  #taken(name: string): boolean {
    return fs.existsSync(this.#file(name, CAST)) || [...this.#active.values()].some((a) => a.name === name);
  }

  /** `base`, or `base-2`, `base-3`… when two recordings of a session start in the same second. */
  #freeName(base: string): string {
    let name = base;
    for (let n = 2; this.#taken(name); n += 1) name = `${base}-${n}`;
    return name;
  }

  #file(name: string, suffix: string): string {
    return path.join(this.dir, `${checkedName(name)}${suffix}`);
  }

  #ensureDir(): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.dir, 0o700);
  }
}

/** The longest hold or time window on a transition out of the initial state, + 0.5 s (capped at 30 s). */
export function leadInMs(spec: CliSpecV4): number {
  const initial = initialState(spec).id;
  let longest = 0;
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'stable_ms' || key === 'elapsed_ms' || key === 'held_ms' || key === 'min_hold_ms') && typeof value === 'number') longest = Math.max(longest, value);
      else walk(value);
    }
  };
  for (const t of outgoingTransitions(spec, initial)) walk(t);
  return Math.min(30_000, longest + 500);
}

/**
 * `<session>-YYYY-MM-DD-HHMMSS` in the daemon's local time: the session's name (or id) made a
 * plain word (other characters become `-`, at most 40 kept), so a list reads by session and time.
 */
export function defaultRecordingName(session: string, at: number): string {
  const word = session.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'session';
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${word}-${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

function notFound(name: string): RecordingsError {
  return new RecordingsError('RECORDING_NOT_FOUND', `no recording named "${name}"; the dashboard's Recordings page lists them`);
}

function checkedName(name: string): string {
  if (!NAME.test(name)) throw new RecordingsError('RECORDING_NAME_INVALID', `recording name ${JSON.stringify(name)} is not 1–64 characters of A–Z, a–z, 0–9, _ or -; choose a plain name`);
  return name;
}
