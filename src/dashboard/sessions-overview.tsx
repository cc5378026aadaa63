/**
 * The sessions overview: every session with its status badge and time in state, the modal's
 * summary and its buttons (session-prompt.tsx), the last notification, sorted so whoever needs a
 * person comes first, and the last line its agent said (last-lines.ts); a label filter; a search
 * across every transcript (transcript-search.tsx); a fleet's sessions grouped by machine (node-groups.ts); creating, killing and removing sessions (input scope);
 * j/k to move, Enter to open, `a` for the approvals inbox. An empty state when there are none,
 * an error state with a retry when the list cannot be read.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { SessionDetail } from '../protocol/sessions.js';
import { scopeAllows } from '../protocol/scopes.js';
import { ApiProblem, call } from './api-client.js';
import { BackgroundBadge } from './background-badge.js';
import { badgeOf, durationLabel, sortByAttention } from './attention.js';
import { SessionCreateForm } from './session-create-form.js';
import { SessionPrompt } from './session-prompt.js';
import { modalSummary } from './prompt-answer.js';
import { isTyping } from './prompt-keys.js';
import { matchesLabelFilter, parseLabelFilter } from './session-filter.js';
import { lastLines, readLastLines } from './last-lines.js';
import { groupByNode, groupSummary } from './node-groups.js';
import { lastNotification, navigate, scope } from './state.js';
import { TranscriptSearch } from './transcript-search.js';

export const BADGE_TEXT = { approval: 'needs approval', idle: 'idle', generating: 'generating', waiting: 'waiting', starting: 'starting', exited: 'exited', failed: 'failed' } as const;

/** The current time, re-read every `periodMs` (for "time in state"). */
export function useNow(periodMs: number): number {
  const now = useSignal(Date.now());
  useEffect(() => {
    const timer = setInterval(() => { now.value = Date.now(); }, periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now.value;
}

/** "4 min in Idle" / "exited 2 min ago". */
export function timeInState(session: SessionDetail, now: number): string {
  const badge = badgeOf(session);
  const exited = badge === 'exited' || badge === 'failed';
  const since = (exited ? session.exited_at : session.state_since) ?? session.state_since ?? session.created_at;
  return exited ? `${session.lifecycle} ${durationLabel(now - since)} ago` : `${durationLabel(now - since)} in ${session.state?.label ?? session.lifecycle}`;
}

const sessionPath = (id: string) => `/sessions/${encodeURIComponent(id)}`;

/** What a person is asked to confirm: killing ends the agent, removing also forgets the session. */
type Pending = 'kill' | 'remove' | null;

function RowActions(props: { session: SessionDetail; onChanged: () => void }) {
  const confirming = useSignal<Pending>(null);
  const error = useSignal<string | null>(null);
  const { session } = props;
  const name = session.name ?? session.id;
  const act = async (what: () => Promise<unknown>) => {
    error.value = null;
    confirming.value = null;
    try { await what(); props.onChanged(); } catch (e) { error.value = e instanceof ApiProblem ? e.message : String(e); }
  };
  const running = session.lifecycle === 'running' || session.lifecycle === 'starting';
  const kill = () => act(() => call('killSession', { params: { id: session.id } }));
  const remove = () => act(() => call('removeSession', { params: { id: session.id }, query: {} }));
  return (
    <div class="row-actions">
      {confirming.value === null ? (
        <>
          {running && <button type="button" aria-label={`Kill ${name}`} onClick={() => { confirming.value = 'kill'; }}>Kill</button>}
          <button type="button" aria-label={`Remove ${name}`} onClick={() => { confirming.value = 'remove'; }}>Remove</button>
        </>
      ) : (
        <>
          <span class="confirm-text">{confirming.value === 'kill' ? 'End the agent? The session stays, exited.' : 'Remove this session and its history?'}</span>
          {confirming.value === 'kill'
            ? <button type="button" class="danger" aria-label={`Confirm killing ${name}`} onClick={() => void kill()}>Confirm kill</button>
            : <button type="button" class="danger" aria-label={`Confirm removing ${name}`} onClick={() => void remove()}>Confirm remove</button>}
          <button type="button" onClick={() => { confirming.value = null; }}>Cancel</button>
        </>
      )}
      {error.value !== null && <p class="problem" role="alert">{error.value}</p>}
    </div>
  );
}

/** "Killed by phone at 10:32:05" (local time): who ended the agent, when a person did. */
export function exitReason(exit: SessionDetail['exit']): string | null {
  const by = exit?.killed_by;
  return by ? `Killed by ${by.name} at ${new Date(by.at).toLocaleTimeString()}` : null;
}

function SessionRow(props: { session: SessionDetail; now: number; selected: boolean; canAct: boolean; canAnswer: boolean; onChanged: () => void }) {
  const { session, now } = props;
  const badge = badgeOf(session);
  const href = sessionPath(session.id);
  const note = lastNotification.value.get(session.id);
  const said = lastLines.value.get(session.id);
  const labels = Object.entries(session.labels);
  const killed = exitReason(session.exit);
  return (
    <li class={`session${props.selected ? ' selected' : ''}`} data-session-id={session.id} data-badge={badge}>
      <a href={href} aria-current={props.selected ? 'true' : undefined} onClick={(e) => { e.preventDefault(); navigate(href); }}>
        <span class={`badge badge-${badge}`}>{BADGE_TEXT[badge]}</span>
        <BackgroundBadge session={session} />
        <span class="session-name">{session.name ?? session.id}</span>
        <span class="session-meta">
          <span>{session.spec.id}</span>
          <span class="cwd" title={session.cwd}>{session.cwd}{session.branch ? ` · ${session.branch}` : ''}</span>
          <span class="time-in-state">{timeInState(session, now)}</span>
          {labels.length > 0 && <span class="labels">{labels.map(([k, v]) => (v ? `${k}=${v}` : k)).join(' ')}</span>}
        </span>
        {said !== undefined && <span class="last-line" title={said}><span class="visually-hidden">The agent said: </span>{said}</span>}
        {session.modal && <span class="modal-title">{modalSummary(session.modal)}</span>}
        {/* A kill's last note would be its signal ("exited on SIGHUP"): who killed it says more. */}
        {killed !== null
          ? <span class="exit-reason">{killed}</span>
          : note && <span class="last-note">Last: {note.text} · {durationLabel(now - note.at)} ago</span>}
      </a>
      <SessionPrompt session={session} canAnswer={props.canAnswer} compact />
      {props.canAct && <RowActions session={session} onChanged={props.onChanged} />}
    </li>
  );
}

export function SessionsOverview(props: { sessions: SessionDetail[] | null; error: string | null; onRetry: () => void; onChanged: () => void }) {
  const now = useNow(1000);
  const filterText = useSignal('');
  // The selection is a session id, not a position: the list re-sorts whenever a state changes,
  // and a person's selection must not jump to whichever session slid into its place.
  const selectedId = useSignal<string | null>(null);
  const filter = parseLabelFilter(filterText.value);
  // A fleet's sessions come grouped by machine; j/k walk them in the order they are shown.
  const groups = groupByNode(props.sessions === null ? [] : sortByAttention(props.sessions).filter((s) => matchesLabelFilter(s, filter)));
  const shown = groups.flatMap((g) => g.sessions);
  const index = Math.max(0, shown.findIndex((s) => s.id === selectedId.value));
  // The key handler reads the list as last rendered, so two quick presses never act on a stale one.
  const latest = useRef(shown);
  latest.current = shown;
  const shownIds = shown.map((s) => s.id).join(' ');
  useEffect(() => { if (shownIds !== '') readLastLines(shownIds.split(' ')); }, [shownIds]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      const list = latest.current;
      const at = Math.max(0, list.findIndex((s) => s.id === selectedId.value));
      if (event.key === 'j' || event.key === 'k') {
        const next = Math.max(0, Math.min(list.length - 1, at + (event.key === 'j' ? 1 : -1)));
        if (list[next] === undefined) return;
        selectedId.value = list[next].id;
        document.querySelector<HTMLElement>(`li.session[data-session-id="${CSS.escape(list[next].id)}"] a`)?.focus();
      } else if (event.key === 'Enter' && list[at] && !(event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement)) {
        navigate(sessionPath(list[at].id));
      } else if (event.key === 'a') {
        navigate('/inbox');
      } else return;
      event.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

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
  const canAct = scope.value !== null && scopeAllows(scope.value, 'input');
  const canAnswer = scope.value !== null && scopeAllows(scope.value, 'approve');
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Sessions</h2>
      <p class="hint">Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>a</kbd> the approvals inbox.</p>
      <div class="overview-tools">
        <label class="field">
          <span>Filter by label</span>
          <input type="search" name="label-filter" placeholder="team=core ci" value={filterText.value} spellcheck={false}
            onInput={(e) => { filterText.value = (e.target as HTMLInputElement).value; selectedId.value = null; }} />
        </label>
        {canAct && <SessionCreateForm onCreated={props.onChanged} />}
      </div>
      {props.sessions.length > 0 && <TranscriptSearch sessions={props.sessions} />}
      {props.sessions.length === 0
        ? <p class="empty">No sessions yet. Start one with <code>specterm new demo-agent</code>{canAct ? ' or the form above' : ''}; it appears here at once.</p>
        : shown.length === 0
          ? <p class="empty">No session has the labels <code>{filterText.value}</code>.</p>
          : groups.map((group) => {
            const list = <ul class="sessions">{group.sessions.map((s) => <SessionRow key={s.id} session={s} now={now} selected={s === shown[index]} canAct={canAct} canAnswer={canAnswer} onChanged={props.onChanged} />)}</ul>;
            return group.node === null ? list : (
              <section class="node-group" key={group.node} aria-labelledby={`node-${group.node}`} data-node={group.node}>
                <h3 id={`node-${group.node}`}>{group.node} <span class="group-summary">{groupSummary(group.sessions)}</span></h3>
                {list}
              </section>
            );
          })}
    </section>
  );
}
