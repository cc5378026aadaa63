/**
 * How a client (the dashboard's overview, the benchmark's overview client) keeps its session list
 * current from the `sessions` topic without reloading the whole list after every event. A
 * `session.state` event carries the new state and modal, so that session is patched in place; an
 * event that adds, removes or ends a session (or that the list cannot be patched from) asks for
 * a reload soon. With 100 streaming agents a state change arrives about every 100 ms: reloading
 * after each burst fetched four whole lists a second, on a phone's link too.
 *
 * A reload in flight must not undo a patch: the events patched while a load runs are applied
 * again, in order, to the list it brings. The ones it already reflects change nothing (their
 * state is already there, and any later change to the same session came after them, so it is
 * applied after them too); the ones it missed are kept.
 *
 * A patched list can still drift in what no event carries (a branch switched, a rename from
 * another device), so state changes also ask for a reconciling reload, at most one per
 * `RECONCILE_MS`.
 * @module
 */
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';

/** At most one reconciling reload this often while only state changes arrive. */
export const RECONCILE_MS = 10_000;

/** After an event: `now` = reload soon (debounced by the page), `later` = reconcile when due, `none` = nothing to do. */
export type ListReload = 'now' | 'later' | 'none';

/** The events that change nothing in the list: a turn's text and a task carry themselves. */
const NOT_IN_LIST = new Set<DaemonEvent['type']>(['transcript.turn', 'task.updated']);

type StateEvent = Extract<DaemonEvent, { type: 'session.state' }>;

/** The session's entry with `event` applied; null when the list cannot be patched from it. */
function patched(list: SessionDetail[], event: StateEvent): SessionDetail[] | null {
  const i = list.findIndex((s) => s.id === event.session_id && (s.node ?? null) === (event.node ?? null));
  if (i < 0) return null;
  const before = list[i]!;
  // An ended session keeps the state its end left: a late event must not make it look alive.
  if (before.lifecycle !== 'running' && before.lifecycle !== 'starting') return null;
  const moved = before.state === null || before.state.id !== event.state.id || before.state.status !== event.state.status;
  const next = list.slice();
  next[i] = {
    ...before,
    lifecycle: 'running', // a state comes only from a running driver
    state: event.state,
    modal: event.modal,
    state_since: moved ? event.at : before.state_since,
  };
  return next;
}

/** The page's session list, patched by events and replaced by loads. */
export class SessionListSync {
  #sessions: SessionDetail[] | null = null;
  /** The state events patched since the oldest load in flight began. */
  #sinceLoads: StateEvent[] = [];
  /** Loads in flight, by the index in `#sinceLoads` each began at. */
  readonly #loads = new Map<number, number>();
  #nextLoad = 1;

  get sessions(): SessionDetail[] | null {
    return this.#sessions;
  }

  /** Applies one `sessions`-topic event; says whether the list wants a reload. */
  event(event: DaemonEvent): ListReload {
    if (NOT_IN_LIST.has(event.type)) return 'none';
    // A finished turn's state came in its own `session.state` already: reconcile, never reload at once.
    if (event.type === 'turn.finished') return 'later';
    if (event.type !== 'session.state') return 'now';
    const next = this.#sessions && patched(this.#sessions, event);
    if (!next) return 'now';
    this.#sessions = next;
    if (this.#loads.size > 0) this.#sinceLoads.push(event);
    return 'later';
  }

  /** A load of the whole list begins: hand its ticket to `loaded` (or `failed`). */
  loading(): number {
    const ticket = this.#nextLoad++;
    this.#loads.set(ticket, this.#sinceLoads.length);
    return ticket;
  }

  /** A load brought `list`: it replaces the list, with the events it may have missed applied again. */
  loaded(ticket: number, list: SessionDetail[]): void {
    const from = this.#loads.get(ticket);
    let next = list;
    for (const event of from === undefined ? [] : this.#sinceLoads.slice(from)) next = patched(next, event) ?? next;
    this.#sessions = next;
    this.#finish(ticket);
  }

  /** Signed out: nothing is shown until the next load. */
  clear(): void {
    this.#sessions = null;
  }

  /** A load failed: the list stays as patched. */
  failed(ticket: number): void {
    this.#finish(ticket);
  }

  #finish(ticket: number): void {
    this.#loads.delete(ticket);
    if (this.#loads.size === 0) this.#sinceLoads = [];
  }
}

/** How long until a reconciling reload is due, given when the list was last loaded. */
export function reconcileDelay(lastLoadAt: number, now: number): number {
  return Math.max(0, lastLoadAt + RECONCILE_MS - now);
}

/** One reload per burst of events that ask for it: this long after the last ask. */
export const RELOAD_DEBOUNCE_MS = 100;

export interface SessionListFeedOptions {
  /** Reads the whole list (`GET /api/v1/sessions`). */
  read: () => Promise<SessionDetail[]>;
  /** The list changed: `patched` by an event or `loaded` whole. */
  onChange?: (sessions: SessionDetail[], how: 'patched' | 'loaded') => void;
  /** A read failed; the list stays as patched. */
  onLoadError?: (error: unknown) => void;
  now?: () => number;
}

/**
 * A {@link SessionListSync} with the reloads it asks for scheduled: the dashboard's overview and
 * the benchmark's overview client run the same schedule (one reload per burst, one reconciling
 * reload at most per `RECONCILE_MS`).
 */
export class SessionListFeed {
  readonly #sync = new SessionListSync();
  readonly #o: SessionListFeedOptions;
  readonly #now: () => number;
  #burst: ReturnType<typeof setTimeout> | undefined;
  #reconcile: ReturnType<typeof setTimeout> | undefined;
  #lastLoadAt = 0;

  constructor(options: SessionListFeedOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  get sessions(): SessionDetail[] | null {
    return this.#sync.sessions;
  }

  /** Applies one `sessions`-topic event and schedules the reload it asks for. */
  event(event: DaemonEvent): void {
    const before = this.#sync.sessions;
    const reload = this.#sync.event(event);
    if (this.#sync.sessions !== before && this.#sync.sessions) this.#o.onChange?.(this.#sync.sessions, 'patched');
    if (reload === 'now') this.reloadSoon();
    else if (reload === 'later' && this.#reconcile === undefined) {
      this.#reconcile = setTimeout(() => { this.#reconcile = undefined; this.reloadSoon(); }, reconcileDelay(this.#lastLoadAt, this.#now()));
    }
  }

  /** Reads the list once the current burst of asks is over. */
  reloadSoon(): void {
    clearTimeout(this.#burst);
    this.#burst = setTimeout(() => void this.load(), RELOAD_DEBOUNCE_MS);
  }

  /** Reads the list now; settles once it is applied or its failure reported (never rejects). */
  async load(): Promise<void> {
    const ticket = this.#sync.loading();
    this.#lastLoadAt = this.#now();
    let list: SessionDetail[];
    try {
      list = await this.#o.read();
    } catch (error) {
      this.#sync.failed(ticket);
      this.#o.onLoadError?.(error);
      return;
    }
    this.#sync.loaded(ticket, list);
    this.#o.onChange?.(this.#sync.sessions!, 'loaded');
  }

  /** Stops the scheduled reloads (a page closing its connection, a client stopping). */
  stop(): void {
    clearTimeout(this.#burst);
    clearTimeout(this.#reconcile);
    this.#burst = this.#reconcile = undefined;
  }

  /** Signed out: no reload is pending and nothing is shown until the next load. */
  clear(): void {
    this.stop();
    this.#sync.clear();
  }
}
