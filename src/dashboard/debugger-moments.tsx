/**
 * The history and snapshot rings: "why did it go idle at 12:03:41?" — pick a transition and see
 * the screen it fired on and the evaluation at that instant (`GET …/explain?at=`), with each
 * countdown frozen at what was left then.
 */
import { useSignal } from '@preact/signals';
import { RawTransitionTable, toDebugTransitions, type DebugMoments, type DebugTransition } from '../protocol/debug.js';
import { call } from './api-client.js';
import { formatDuration } from './countdown.js';
import { TransitionTable } from './debugger-transitions.js';
import { ScreenOverlay } from './overlay.js';

function clockTime(at: number): string {
  const d = new Date(at);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

interface Picked { at: number; from: string; state: string; rules: string[]; transitions: DebugTransition[]; screen: string[] | null }

export function DebuggerMoments(props: { sessionId: string; moments: DebugMoments }) {
  const picked = useSignal<Picked | null>(null);
  const error = useSignal<string | null>(null);
  const pick = async (snapshot: DebugMoments['snapshots'][number]) => {
    try {
      const explained = await call('explainState', { params: { id: props.sessionId }, query: { at: snapshot.at } });
      const table = RawTransitionTable.safeParse(explained.transitions);
      if (!table.success) throw new Error(`the daemon's explanation at ${snapshot.at} is not a transition table; the daemon and the dashboard versions differ`);
      // A past table: what was left then is the whole story, so a hold's window is what remained.
      const transitions = toDebugTransitions(table.data as never, snapshot.at, (t) => t.holdRemainingMs);
      picked.value = { at: snapshot.at, from: snapshot.from, state: explained.state?.id ?? snapshot.to, rules: explained.matched_rules, transitions, screen: snapshot.screen };
      error.value = null;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  };
  const { history, snapshots } = props.moments;
  const p = picked.value;
  return (
    <div class="moments">
      <h3>History</h3>
      {history.length === 0 ? <p class="empty">No transitions yet.</p> : (
        <ol class="history" reversed>
          {[...history].reverse().map((h) => (
            <li key={`${h.at}-${h.state}`}><time dateTime={new Date(h.at).toISOString()}>{clockTime(h.at)}</time> {h.via ?? h.state} <span class="muted">({h.label}; previous state lasted {formatDuration(h.duration_ms)})</span></li>
          ))}
        </ol>
      )}
      <h3>Snapshots</h3>
      <p class="muted">Each transition's evaluation is kept; pick one to see its screen and why it fired.</p>
      <ul class="snapshot-list">
        {[...snapshots].reverse().map((s) => (
          <li key={`${s.at}-${s.to}`}>
            <button type="button" aria-pressed={p?.at === s.at} data-snapshot-at={s.at} onClick={() => void pick(s)}>
              {clockTime(s.at)} {s.from} → {s.to}
            </button>
          </li>
        ))}
      </ul>
      {error.value ? <p class="problem" role="alert">{error.value}</p> : null}
      {p ? (
        <div class="moment" data-moment-at={p.at}>
          <h4>At {clockTime(p.at)}: {p.from} → {p.state}</h4>
          <pre class="rules">{p.rules.join('\n')}</pre>
          <div class="debugger-grid">
            <TransitionTable transitions={p.transitions} now={p.at} from={p.from} />
            {p.screen ? <ScreenOverlay lines={p.screen} label={`Screen at ${clockTime(p.at)}`} /> : <p class="empty">No screen kept for this moment (it fired before the daemon started watching).</p>}
          </div>
        </div>
      ) : null}
    </div>
  );
}
