/**
 * The sessions overview: every session with its status badge and time in state, sorted so
 * whoever needs a person comes first; an empty state when there are none, an error state
 * with a retry when the list cannot be read.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { SessionDetail } from '../protocol/sessions.js';
import { badgeOf, durationLabel, sortByAttention } from './attention.js';
import { navigate } from './state.js';

const BADGE_TEXT = { approval: 'needs approval', idle: 'idle', generating: 'generating', waiting: 'waiting', starting: 'starting', exited: 'exited', failed: 'failed' } as const;

function useNow(periodMs: number): number {
  const now = useSignal(Date.now());
  useEffect(() => {
    const timer = setInterval(() => { now.value = Date.now(); }, periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now.value;
}

function SessionRow(props: { session: SessionDetail; now: number }) {
  const { session, now } = props;
  const badge = badgeOf(session);
  const exited = badge === 'exited' || badge === 'failed';
  const since = (exited ? session.exited_at : session.state_since) ?? session.state_since ?? session.created_at;
  const href = `/sessions/${encodeURIComponent(session.id)}`;
  return (
    <li class="session" data-session-id={session.id} data-badge={badge}>
      <a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>
        <span class={`badge badge-${badge}`}>{BADGE_TEXT[badge]}</span>
        <span class="session-name">{session.name ?? session.id}</span>
        <span class="session-meta">
          <span>{session.spec.id}</span>
          <span class="cwd" title={session.cwd}>{session.cwd}{session.branch ? ` · ${session.branch}` : ''}</span>
          <span>{exited ? `${session.lifecycle} ${durationLabel(now - since)} ago` : `${durationLabel(now - since)} in ${session.state?.label ?? session.lifecycle}`}</span>
        </span>
        {session.modal?.title && <span class="modal-title">{session.modal.title}</span>}
      </a>
    </li>
  );
}

export function SessionsOverview(props: { sessions: SessionDetail[] | null; error: string | null; onRetry: () => void }) {
  const now = useNow(1000);
  if (props.error !== null) {
    return (
      <section aria-labelledby="overview-title">
        <h2 id="overview-title">Sessions</h2>
        <div class="problem" role="alert">
          <p>The session list could not be read: {props.error}</p>
          <button type="button" onClick={props.onRetry}>Retry</button>
        </div>
      </section>
    );
  }
  if (props.sessions === null) return <section aria-busy="true"><h2>Sessions</h2><p role="status">Loading…</p></section>;
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Sessions</h2>
      {props.sessions.length === 0
        ? <p class="empty">No sessions yet. Start one with <code>specterm new demo-agent</code>; it appears here at once.</p>
        : <ul class="sessions">{sortByAttention(props.sessions).map((s) => <SessionRow key={s.id} session={s} now={now} />)}</ul>}
    </section>
  );
}
