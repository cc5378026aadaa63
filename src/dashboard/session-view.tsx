/**
 * One session: its header (name, badge, time in state), the prompt on screen, if any, with
 * its buttons and keys (session-prompt.tsx), the spec's control bar, and a tab bar whose tabs
 * each have a route (session-tabs.tsx). The session is read once and again after the events of
 * its `session/<id>` topic (a burst of them: one read after the one under way, ./latest-read.ts).
 * Loaded on demand: the overview does not pay for xterm.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { scopeAllows } from '../protocol/scopes.js';
import { ApiProblem, call } from './api-client.js';
import { BackgroundBadge } from './background-badge.js';
import { badgeOf } from './attention.js';
import { ControlsBar } from './controls-bar.js';
import { MuteToggle } from './mute-toggle.js';
import type { LiveConnection } from './live.js';
import { BADGE_TEXT, timeInState, useNow } from './sessions-overview.js';
import { SessionPrompt } from './session-prompt.js';
import { SessionTasks } from './session-tasks.js';
import { SESSION_TABS, sessionTabPath } from './session-tabs.js';
import { navigate, newestEventSeq, scope } from './state.js';
import { takePreloadedSession } from './preload.js';
import { latestRead } from './latest-read.js';

export default function SessionView(props: { sessionId: string; tab: string; live: LiveConnection }) {
  const session = useSignal<SessionDetail | null>(null);
  const error = useSignal<string | null>(null);
  const lastEvent = useSignal<DaemonEvent | null>(null);
  const now = useNow(1000);
  // The page's session now: a read of the one it showed before lands without effect.
  const shown = useRef(props.sessionId);
  shown.current = props.sessionId;
  const load = useMemo(() => {
    const id = props.sessionId;
    return latestRead(async () => {
      try {
        const detail = await (takePreloadedSession(id) ?? call('getSession', { params: { id } }));
        if (shown.current !== id) return;
        session.value = detail;
        error.value = null;
      } catch (e) {
        if (shown.current !== id) return;
        error.value = e instanceof ApiProblem && e.status === 404 ? `There is no session ${id} (it was removed).` : String(e instanceof Error ? e.message : e);
      }
    });
  }, [props.sessionId]);
  useEffect(() => {
    session.value = null;
    void load();
    // Read just above, so only what happens from now on: no replay of the session's history.
    return props.live.subscribeEvents(`session/${props.sessionId}`, {
      from: newestEventSeq(),
      event: (event) => {
        lastEvent.value = event;
        // A turn's text grows several times a second and changes nothing the header shows.
        if (event.type !== 'transcript.turn') void load();
      },
    });
  }, [props.sessionId, props.live, load]);

  const s = session.value;
  if (error.value !== null && s === null) return <section><h2>Session {props.sessionId}</h2><p class="problem" role="alert">{error.value}</p></section>;
  if (s === null) return <section aria-busy="true"><h2>Session {props.sessionId}</h2><p role="status">Loading…</p></section>;
  const tab = SESSION_TABS.find((t) => t.id === props.tab) ?? SESSION_TABS[0]!;
  const badge = badgeOf(s);
  const canInput = scope.value !== null && scopeAllows(scope.value, 'input');
  return (
    <section aria-labelledby="session-title" class="session-view" data-session-id={s.id} data-badge={badge}>
      <header class="session-head">
        <h2 id="session-title">{s.name ?? s.id}</h2>
        <span class={`badge badge-${badge}`}>{BADGE_TEXT[badge]}</span>
        <BackgroundBadge session={s} />
        <span class="time-in-state">{timeInState(s, now)}</span>
        <span class="session-meta">{s.spec.id} · <span class="cwd">{s.cwd}{s.branch ? ` · ${s.branch}` : ''}</span></span>
        <MuteToggle session={s} onChanged={() => void load()} />
      </header>
      <SessionTasks sessionId={s.id} />
      <SessionPrompt session={s} canAnswer={scope.value !== null && scopeAllows(scope.value, 'approve')} />
      <ControlsBar session={s} enabled={canInput} onChanged={() => void load()} />
      <nav class="tabs" aria-label="Session views">
        {SESSION_TABS.map((t) => (
          <a key={t.id} href={sessionTabPath(s.id, t.id)} aria-current={t.id === tab.id ? 'page' : undefined}
            onClick={(e) => { e.preventDefault(); navigate(sessionTabPath(s.id, t.id)); }}>{t.label}</a>
        ))}
      </nav>
      <div class="tab-panel">{tab.render({ session: s, live: props.live, lastEvent: lastEvent.value, reload: () => void load() })}</div>
    </section>
  );
}
