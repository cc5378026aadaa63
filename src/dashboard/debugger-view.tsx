/**
 * The live spec debugger (`/sessions/<id>/debug`): the current state and its age, every outgoing
 * transition with per-condition results and countdowns ticking on the page's clock, the screen
 * with the resolved sections over it, the state graph with the current state and the last edge,
 * and the history and snapshot rings (pick one → that screen and that evaluation).
 *
 * Freshness: it polls `GET …/debug/live` once a second and at once on any event of the
 * `session/<id>` topic. Polling, because what moves a countdown's due time (a screen change
 * restarting a stability window, a guard turning true) is not an event the daemon emits, and
 * the explained table is computed on request — one extra evaluation a second per open debugger.
 * Between answers the bars tick locally from the due times and the server clock offset.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { DebugMoments, LiveDebug, SpecGraph } from '../protocol/debug.js';
import type { DaemonEvent } from '../protocol/events.js';
import { call } from './api-client.js';
import { ClockOffset, formatDuration } from './countdown.js';
import { DebuggerMoments } from './debugger-moments.js';
import { TransitionTable } from './debugger-transitions.js';
import { GraphView } from './graph-view.js';
import { ScreenOverlay } from './overlay.js';
import { RecordButton } from './recordings-view.js';

const POLL_MS = 1000;
const TICK_MS = 50;

/**
 * `lastEvent` comes from the session view's own `session/<id>` subscription (one handler per
 * topic on the page's connection): each new event refreshes at once, between the polls.
 */
export default function DebuggerView(props: { sessionId: string; sessionName: string | null; lastEvent: DaemonEvent | null }) {
  const { sessionId } = props;
  const debug = useSignal<LiveDebug | null>(null);
  const screen = useSignal<string[]>([]);
  const graph = useSignal<SpecGraph | null>(null);
  const moments = useSignal<DebugMoments | null>(null);
  const error = useSignal<string | null>(null);
  const now = useSignal(0);
  const clock = useMemo(() => new ClockOffset(), [sessionId]);
  const refreshNow = useRef<(() => void) | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let again = false;
    const params = { id: sessionId };
    const refresh = async (withMoments: boolean): Promise<void> => {
      if (inFlight) { again = true; return; }
      inFlight = true;
      clearTimeout(timer);
      try {
        const sentAt = Date.now();
        const [live, text] = await Promise.all([call('getLiveDebug', { params }), call('getScreen', { params })]);
        clock.sample(sentAt, Date.now(), live.server_now);
        if (stopped) return;
        debug.value = live;
        screen.value = text.content.split('\n');
        error.value = null;
        if (withMoments || moments.value === null) moments.value = await call('getDebugMoments', { params });
      } catch (e) {
        if (!stopped) error.value = e instanceof Error ? e.message : String(e);
      } finally {
        inFlight = false;
        if (!stopped) {
          if (again) { again = false; void refresh(true); } else timer = setTimeout(() => void refresh(false), POLL_MS);
        }
      }
    };
    call('getSpecGraph', { params }).then((g) => { if (!stopped) graph.value = g; }, (e: Error) => { error.value = e.message; });
    void refresh(true);
    refreshNow.current = () => void refresh(true);
    const ticker = setInterval(() => { now.value = clock.serverNow(Date.now()); }, TICK_MS);
    return () => { stopped = true; refreshNow.current = null; clearTimeout(timer); clearInterval(ticker); };
  }, [sessionId]);
  useEffect(() => { if (props.lastEvent) refreshNow.current?.(); }, [props.lastEvent]);

  const d = debug.value;
  const serverNow = Math.max(now.value, d?.server_now ?? 0);
  return (
    <section class="debugger" data-view="debugger" aria-labelledby="debugger-title">
      <h2 id="debugger-title">Debugger · {props.sessionName ?? `session ${sessionId}`}</h2>
      <RecordButton sessionId={sessionId} />
      {error.value ? <p class="problem" role="alert">{error.value}</p> : null}
      {d === null ? <p role="status">Loading the debug view…</p> : (
        <>
          <p class="debug-state" role="status" aria-live="polite">
            State <strong data-state={d.state.id}>{d.state.label}</strong> <code>{d.state.id}</code> ({d.state.status})
            {' '}for <span class="state-age">{formatDuration(Math.max(0, serverNow - d.state_entered_at))}</span>
            {d.last_edge ? <span class="muted"> · last edge {d.last_edge.from} → {d.last_edge.to}</span> : null}
          </p>
          <div class="debugger-grid">
            <div>
              <h3>Transitions from {d.state.id}</h3>
              <TransitionTable transitions={d.transitions} now={serverNow} from={d.state.id} />
            </div>
            <div class="debugger-screen">
              <h3>Screen and sections</h3>
              <ScreenOverlay lines={screen.value} sections={d.sections} cursorRow={d.cursor.row} label="Screen with the spec's sections" />
            </div>
          </div>
          <h3>State graph</h3>
          <div class="graph-scroll" role="region" tabIndex={0} aria-label="State graph">
            {graph.value ? <GraphView graph={graph.value} current={d.state.id} lastEdge={d.last_edge} /> : <p role="status">Loading the graph…</p>}
          </div>
        </>
      )}
      {moments.value ? <DebuggerMoments sessionId={sessionId} moments={moments.value} /> : null}
    </section>
  );
}
