/**
 * Where the toasts show: two live regions, always in the page (a region added together with
 * its text is not announced): approvals in an assertive one (`role="alert"` each), the rest in a
 * polite one. Each toast names its session, says what happened, links the session and can be
 * dismissed.
 */
import { navigate, sessions } from './state.js';
import { dismissToast, toasts, type Toast } from './toasts.js';

function ToastItem({ toast }: { toast: Toast }) {
  const session = sessions.value?.find((s) => s.id === toast.sessionId);
  const name = session?.name ?? toast.sessionId;
  const href = `/sessions/${encodeURIComponent(toast.sessionId)}`;
  return (
    // The alert role sits inside the item: on the `li` it would replace the list item (axe: "list").
    <li class={`toast${toast.urgent ? ' toast-urgent' : ''}`} data-type={toast.type}>
      <div class="toast-body" role={toast.urgent ? 'alert' : undefined}>
        <a href={href} onClick={(e) => { e.preventDefault(); dismissToast(toast.seq); navigate(href); }}>
          <span class="toast-session">{name}</span> <span class="toast-text">{toast.text}</span>
        </a>
        <button type="button" class="toast-dismiss" aria-label={`Dismiss: ${name}, ${toast.text}`} onClick={() => dismissToast(toast.seq)}>×</button>
      </div>
    </li>
  );
}

export function ToastRegion() {
  const all = toasts.value;
  return (
    <div class="toasts">
      <ul class="toast-list" aria-live="assertive" aria-label="Approvals needed">{all.filter((t) => t.urgent).map((t) => <ToastItem key={t.seq} toast={t} />)}</ul>
      <ul class="toast-list" aria-live="polite" aria-label="Notifications">{all.filter((t) => !t.urgent).map((t) => <ToastItem key={t.seq} toast={t} />)}</ul>
    </div>
  );
}
