/**
 * The session's state history (`GET …/history`): newest first, a page at a time ("Older"
 * fetches the page before the last one shown), each change with its time, the state, how long
 * it lasted and why.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { z } from 'zod';
import type { HistoryEntry } from '../protocol/sessions.js';
import { call } from './api-client.js';
import { durationLabel } from './attention.js';

type Entry = z.infer<typeof HistoryEntry>;
/** Rows per page: a screenful on a laptop. */
const PAGE = 50;

export function HistoryView(props: { sessionId: string }) {
  const entries = useSignal<Entry[]>([]);
  const nextBefore = useSignal<number | null>(null);
  const state = useSignal<'loading' | 'ready' | { error: string }>('loading');
  const load = async (before: number | null) => {
    state.value = 'loading';
    try {
      const page = await call('getHistory', { params: { id: props.sessionId }, query: before === null ? { limit: PAGE } : { limit: PAGE, before } });
      entries.value = before === null ? page.entries : [...entries.value, ...page.entries];
      nextBefore.value = page.next_before;
      state.value = 'ready';
    } catch (error) {
      state.value = { error: error instanceof Error ? error.message : String(error) };
    }
  };
  useEffect(() => { void load(null); }, [props.sessionId]);
  const s = state.value;
  return (
    <section aria-labelledby="history-title" class="history">
      <h3 id="history-title">State history</h3>
      {typeof s === 'object' && <div class="problem" role="alert"><p>The history could not be read: {s.error}</p><button type="button" onClick={() => void load(null)}>Retry</button></div>}
      {s === 'ready' && entries.value.length === 0 && <p class="empty">No state change recorded yet.</p>}
      {entries.value.length > 0 && (
        <table>
          <thead><tr><th scope="col">Time</th><th scope="col">State</th><th scope="col">Lasted</th><th scope="col">Why</th></tr></thead>
          <tbody>
            {entries.value.map((e) => (
              <tr key={e.seq} data-seq={e.seq}>
                <td><time dateTime={new Date(e.at).toISOString()}>{new Date(e.at).toLocaleTimeString()}</time></td>
                <td><span class={`badge badge-${e.state.status === 'approval' ? 'approval' : e.state.status === 'idle' ? 'idle' : 'generating'}`}>{e.state.label}</span></td>
                <td>{e.duration_ms === null ? 'now' : durationLabel(e.duration_ms)}</td>
                <td>{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {s === 'loading' && <p role="status">Loading…</p>}
      {s === 'ready' && nextBefore.value !== null && <button type="button" onClick={() => void load(nextBefore.value)}>Older</button>}
    </section>
  );
}
