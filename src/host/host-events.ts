/**
 * The output and exit events a host client receives, fanned out to every listener and to the
 * listeners of the one session each event belongs to.
 *
 * @module
 */
import { ListenerSet, type Disposable } from '../terminal/index.js';

/** Output of one session, live or replayed from the ring. */
export interface OutputEvent {
  id: string;
  /** Seq of the first byte. */
  seq: number;
  bytes: Buffer;
  replay: boolean;
}

/** A session's child ended. */
export interface ExitEvent {
  id: string;
  exitCode: number | null;
  signal: string | null;
  /** Final output seq. */
  seq: number;
  /** The child never ran: why (see wire.ts). */
  spawnError?: { code: string; message: string };
}

/** Listeners of all sessions and of one session each (see {@link HostClient}). */
export class HostEventFanout {
  readonly #output = new ListenerSet<OutputEvent>('output');
  readonly #exit = new ListenerSet<ExitEvent>('exit');
  /** Listeners of one session: a frame goes to its session's only, not through every transport. */
  readonly #bySession = new Map<string, { output: ListenerSet<OutputEvent>; exit: ListenerSet<ExitEvent> }>();

  /** Output of every session. */
  onOutput(listener: (event: OutputEvent) => void): Disposable {
    return this.#output.add(listener);
  }

  /** The exit of every session. */
  onExit(listener: (event: ExitEvent) => void): Disposable {
    return this.#exit.add(listener);
  }

  /** Output or exit of session `id` only; its entry goes once its last listener does. */
  onSession<K extends 'output' | 'exit'>(id: string, kind: K, listener: (event: K extends 'output' ? OutputEvent : ExitEvent) => void): Disposable {
    let entry = this.#bySession.get(id);
    if (!entry) {
      entry = { output: new ListenerSet<OutputEvent>('output'), exit: new ListenerSet<ExitEvent>('exit') };
      this.#bySession.set(id, entry);
    }
    const added = (entry[kind] as ListenerSet<unknown>).add(listener as (event: unknown) => void);
    const owner = entry;
    return {
      dispose: () => {
        added.dispose();
        if (owner.output.size === 0 && owner.exit.size === 0 && this.#bySession.get(id) === owner) this.#bySession.delete(id);
      },
    };
  }

  emitOutput(event: OutputEvent): void {
    this.#output.emit(event);
    this.#bySession.get(event.id)?.output.emit(event);
  }

  emitExit(event: ExitEvent): void {
    this.#exit.emit(event);
    this.#bySession.get(event.id)?.exit.emit(event);
  }
}
