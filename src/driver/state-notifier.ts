/**
 * What a state change tells the outside (§7.1–7.2): notifications on entering their state, and
 * delegate tasks armed on entering theirs and fired after their delay unless the state was left.
 * Delegate timers are one-shots of the driver's TimerStore.
 *
 * @module
 */
import * as os from 'node:os';
import type { CliSpecV4, DelegateTrigger } from '../core/spec/types.js';
import type { DashboardEvent, StateView } from './events.js';
import type { TimerStore } from './timer-store.js';

export class StateNotifier {
  readonly #timers: TimerStore;
  readonly #emit: (ev: DashboardEvent) => void;
  readonly #hostname: string;
  readonly #delegateTimers = new Map<string, { cancel(): void }>();

  /** `hostname` fills `{node}` in delegate tasks (default: this machine's). */
  constructor(timers: TimerStore, emit: (ev: DashboardEvent) => void, hostname: string | undefined) {
    this.#timers = timers;
    this.#emit = emit;
    this.#hostname = hostname ?? os.hostname();
  }

  /** After a `state_changed` for `state`: its notifications fire, delegates arm or cancel. `current` is read when a delegate fires. */
  onStateEmitted(spec: CliSpecV4, state: StateView, current: () => StateView | null): void {
    for (const n of spec.notifications ?? []) {
      if (n.when_state !== state.id) continue;
      this.#emit({ kind: 'notification', id: n.id, title: n.title, body: (n.body ?? '').replace(/\{state\.title\}/g, state.title ?? '') });
    }
    for (const d of spec.delegate ?? []) {
      const armed = this.#delegateTimers.get(d.id);
      if (d.when_state === state.id && armed === undefined) {
        this.#delegateTimers.set(d.id, this.#timers.later(d.after_duration_ms ?? 0, () => {
          this.#delegateTimers.delete(d.id);
          this.#fireDelegate(d, current());
        }));
      } else if (d.when_state !== state.id && armed !== undefined) {
        armed.cancel();
        this.#delegateTimers.delete(d.id);
      }
    }
  }

  /** Forgets armed delegates (their timers go with the TimerStore). */
  dispose(): void {
    for (const t of this.#delegateTimers.values()) t.cancel();
    this.#delegateTimers.clear();
  }

  #fireDelegate(d: DelegateTrigger, cur: StateView | null): void {
    const task = d.task_template
      .replace(/\{node\}/g, this.#hostname)
      .replace(/\{state\.label\}/g, cur?.label ?? '')
      .replace(/\{state\.title\}/g, cur?.title ?? '')
      .replace(/\{duration_ms\}/g, String(d.after_duration_ms ?? 0));
    this.#emit({ kind: 'delegate', id: d.id, task });
  }
}
