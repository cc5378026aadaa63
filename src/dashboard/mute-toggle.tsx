/**
 * The session page's mute toggle (issue 27 item 8): a muted session raises no toast, push,
 * system notification, desktop notification or webhook, but its approvals stay in the inbox —
 * muting hides nothing, it only stops interrupting. A pressed-state button (`aria-pressed`), so
 * a screen reader says whether the session is muted (the name stays the same, the state is the
 * press); needs the `approve` scope, as the route does.
 */
import { useSignal } from '@preact/signals';
import type { SessionDetail } from '../protocol/sessions.js';
import { scopeAllows } from '../protocol/scopes.js';
import { call } from './api-client.js';
import { scope } from './state.js';

export function MuteToggle(props: { session: SessionDetail; onChanged: () => void }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const muted = props.session.muted === true;
  const allowed = scope.value !== null && scopeAllows(scope.value, 'approve');
  const toggle = async () => {
    busy.value = true;
    try {
      await call('muteSession', { params: { id: props.session.id }, body: { muted: !muted } });
      error.value = null;
      props.onChanged();
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    } finally {
      busy.value = false;
    }
  };
  return (
    <span class="mute-toggle">
      <button type="button" aria-pressed={muted ? 'true' : 'false'} disabled={!allowed || busy.value} onClick={() => void toggle()}
        title={muted ? 'Muted: no toasts, pushes or webhooks for this session; its approvals are still in the inbox. Press to notify again.' : 'Stop notifications for this session (its approvals stay in the inbox)'}>
        Mute notifications
      </button>
      {error.value !== null && <span class="problem" role="alert">Could not change the mute: {error.value}</span>}
    </span>
  );
}
