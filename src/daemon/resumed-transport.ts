/**
 * `ResumedTransport`: how a restarted daemon hands a running session back to a new driver. It
 * attaches to the session in the host FIRST, collects the whole replayed ring, and only then
 * lets the driver start: the driver's `spawn()` delivers the replay as one chunk, synchronously,
 * so the driver's first evaluation (in the state the store last recorded, `resumeFrom`) sees the
 * rebuilt screen, never an empty or half-replayed one. A half-replayed screen shows old frames
 * (a spinner from an earlier turn) and would move a resumed `approval` state to `busy`.
 *
 * Writes made while the replay is delivered are dropped, as `HostTransport` does: they are the
 * screen answering terminal queries the previous daemon already answered.
 *
 * @module
 */
import { ListenerSet, type Disposable, type ExitInfo, type PtyTransport, type SpawnRequest } from '../terminal/index.js';
import { HostTransport, type HostClient } from '../host/index.js';

/** Bound on collecting the replay (a 1 MiB ring arrives in milliseconds on a live host). */
const REPLAY_TIMEOUT_MS = 10_000;

export class ResumedTransport implements PtyTransport {
  /** The underlying host transport (its `seq`, `pid`, raw output for terminal viewers). */
  readonly inner: HostTransport;
  readonly #data = new ListenerSet<string>('data');
  readonly #exit = new ListenerSet<ExitInfo>('exit');
  #buffered: string[] = [];
  #collecting = true;
  #replaying = false;
  #pendingExit: ExitInfo | undefined;
  #spawned = false;

  private constructor(inner: HostTransport) {
    this.inner = inner;
    inner.onData((chunk) => {
      if (this.#collecting) this.#buffered.push(chunk);
      else this.#data.emit(chunk);
    });
    inner.onExit((info) => {
      if (this.#spawned) this.#exit.emit(info);
      else this.#pendingExit = info;
    });
  }

  /**
   * Attaches to session `id` from seq 0 at the size `cols`×`rows` and resolves once every byte
   * the ring held at attach time has arrived (or the session ended).
   */
  static async attach(client: HostClient, id: string, cols: number, rows: number): Promise<ResumedTransport> {
    const transport = new ResumedTransport(new HostTransport({ client, target: { mode: 'attach', id, since: 0 } }));
    const inner = transport.inner;
    inner.spawn({ file: 'attach', args: [], cwd: '/', env: {}, cols, rows });
    const attached = await inner.attached!;
    const target = attached.session.seq;
    const deadline = Date.now() + REPLAY_TIMEOUT_MS;
    while (inner.seq < target && !inner.exitInfo && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    return transport;
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }

  /** Delivers the collected replay as one chunk, then live output; an exit seen meanwhile follows. */
  spawn(_req: SpawnRequest): void {
    if (this.#spawned) return;
    this.#spawned = true;
    this.#collecting = false;
    const replay = this.#buffered.join('');
    this.#buffered = [];
    if (replay.length > 0) {
      this.#replaying = true;
      try {
        this.#data.emit(replay);
      } finally {
        this.#replaying = false;
      }
    }
    const exit = this.#pendingExit;
    if (exit) queueMicrotask(() => this.#exit.emit(exit));
  }

  write(data: string): void {
    if (this.#replaying) return;
    this.inner.write(data);
  }

  resize(cols: number, rows: number): void {
    this.inner.resize(cols, rows);
  }

  kill(): void {
    this.inner.kill();
  }

  onData(listener: (chunk: string) => void): Disposable {
    return this.#data.add(listener);
  }

  onExit(listener: (info: ExitInfo) => void): Disposable {
    return this.#exit.add(listener);
  }
}
