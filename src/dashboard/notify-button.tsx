/** The header's "Notify me" button: the permission prompt must come from a user gesture. */
import { useSignal } from '@preact/signals';
import { enableNotifications } from './notify.js';

export function NotifyButton() {
  const status = useSignal<string | null>(null);
  return (
    <>
      <button type="button" onClick={() => { void enableNotifications().then((text) => { status.value = text; }); }}>Notify me</button>
      {status.value !== null && <span class="notify-status" role="status">{status.value}</span>}
    </>
  );
}
