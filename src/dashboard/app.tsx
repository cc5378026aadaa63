/**
 * The app shell: pairing first when the URL carries a code, then the overview, the approvals
 * inbox or one session, kept live by one WebSocket (`sessions` topic: a state change patches the
 * list, other list changes reload it (src/client/session-list.ts), and any event may be a session's
 * last notification; `hello` tells the device's scope). A 401 anywhere, or the socket closed for
 * a revoked token, goes back to sign-in.
 */
import { signal } from '@preact/signals';
import { lazy, Suspense } from 'preact/compat';
import { useEffect, useMemo } from 'preact/hooks';
import { ApiProblem, call } from './api-client.js';
import { noteTranscriptEvent } from './last-lines.js';
import { LiveConnection } from './live.js';
import { NotifyButton } from './notify-button.js';
import { notifyHiddenPage } from './notify-page.js';
import { takePairingCodeFromLocation } from './pairing.js';
import { isOpenedByPerson } from './attention.js';
import { Inbox } from './inbox.js';
import { SessionsOverview } from './sessions-overview.js';
import { SessionListFeed } from '../client/session-list.js';
import { loadSessionView, preloadRoute } from './preload.js';
import { SignIn } from './sign-in.js';
import { loadTasks, noteTaskEvent, tasks } from './tasks-live.js';
import { ToastRegion } from './toast-region.js';
import { isNewEvent, toastEvent } from './toasts.js';
import { auth, device, liveStatus, navigate, newestEventSeq, noteEvent, noteEventSeq, noteListedNotices, route, scope, sessions, sessionsError } from './state.js';

const SessionView = lazy(loadSessionView);
const RecordingsView = lazy(() => import('./recordings-view.js'));
const DevicesView = lazy(() => import('./devices-view.js'));
const TasksView = lazy(() => import('./tasks-view.js'));

/**
 * Taken at load, before anything renders, so the fragment leaves the address bar at once; and
 * again when only the fragment changes (a pairing link opened in a tab already on the page).
 */
const pairingCode = signal(takePairingCodeFromLocation());
if (pairingCode.value === null) preloadRoute(route.value);
addEventListener('hashchange', () => {
  const code = takePairingCodeFromLocation();
  if (code === null) return;
  pairingCode.value = code;
  auth.value = 'unknown';
});

/** The list as events patch it and loads replace it; `sessions` shows it. */
const sessionList = new SessionListFeed({
  read: async () => {
    const list = await call('listSessions');
    noteEventSeq(list.event_seq);
    noteListedNotices(list.sessions);
    return list.sessions;
  },
  onChange: (list, how) => {
    sessions.value = list;
    if (how === 'patched') return;
    sessionsError.value = null;
    auth.value = 'signed-in';
  },
  onLoadError: (error) => {
    if (error instanceof ApiProblem && error.status === 401) auth.value = 'signed-out';
    else sessionsError.value = error instanceof Error ? error.message : String(error);
  },
});
const loadSessions = (): Promise<void> => sessionList.load();

function SignedIn() {
  const live = useMemo(() => new LiveConnection((status) => {
    liveStatus.value = status;
    if (status === 'signed-out') auth.value = 'signed-out';
  }), []);
  // Test and debugging hook: the page's one connection (e.g. `drop()` as a network failure would).
  Object.assign(((globalThis as { specterm?: object }).specterm ??= {}), { live });
  useEffect(() => live.listen((message) => { if (message.type === 'hello') { scope.value = message.scope; device.value = message.device ?? null; } }), [live]);
  useEffect(() => {
    // From the list's seq on (the page read the list before it signed in), never the whole history.
    const unsubscribe = live.subscribeEvents('sessions', {
      from: newestEventSeq(),
      // Back after a drop: the events missed meanwhile are replayed, but the list and the tasks are read again.
      subscribed: () => {
        if (tasks.value !== null) void loadTasks();
        sessionList.reloadSoon();
      },
      event: (event) => {
        noteEventSeq(event.seq);
        noteEvent(event); noteTranscriptEvent(event); noteTaskEvent(event);
        if (isNewEvent(event)) { toastEvent(event); void notifyHiddenPage(event); }
        sessionList.event(event);
      },
    });
    return () => { unsubscribe(); sessionList.stop(); live.close(); };
  }, [live]);
  const signOut = async () => {
    try { await call('signOut'); } finally { live.close(); auth.value = 'signed-out'; sessionList.clear(); sessions.value = null; }
  };
  const current = route.value;
  // A modal the person opened themselves (the model picker) waits for nobody: not counted.
  const waiting = (sessions.value ?? []).filter((s) => s.modal !== null && !isOpenedByPerson(s.modal)).length;
  return (
    <>
      <header class="top">
        <a class="brand" href="/" onClick={(e) => { e.preventDefault(); navigate('/'); }}>specterm</a>
        <nav aria-label="Views" class="views">
          <a href="/" aria-current={current.view === 'overview' ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate('/'); }}>Sessions</a>
          <a href="/inbox" aria-current={current.view === 'inbox' ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate('/inbox'); }}>
            Inbox{waiting > 0 && <span class="count" aria-label={`${waiting} waiting`}>{waiting}</span>}
          </a>
          <a href="/tasks" aria-current={current.view === 'tasks' ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate('/tasks'); }}>Tasks</a>
          <a href="/recordings" aria-current={current.view === 'recordings' ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate('/recordings'); }}>Recordings</a>
          <a href="/devices" aria-current={current.view === 'devices' ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate('/devices'); }}>Devices</a>
        </nav>
        <span class={`live live-${liveStatus.value}`} role="status" aria-label={`live updates: ${liveStatus.value}`}>{liveStatus.value === 'open' ? 'live' : liveStatus.value}</span>
        <NotifyButton />
        <button type="button" onClick={() => void signOut()}>Sign out</button>
      </header>
      <main>
        <h1 class="visually-hidden">specterm dashboard</h1>
        {current.view === 'overview' && <SessionsOverview sessions={sessions.value} error={sessionsError.value} onRetry={() => void loadSessions()} onChanged={() => void loadSessions()} />}
        {current.view === 'inbox' && <Inbox sessions={sessions.value} />}
        {current.view === 'session' && (
          <Suspense fallback={<p role="status">Loading the session…</p>}>
            <SessionView sessionId={current.id} tab={current.tab} live={live} />
          </Suspense>
        )}
        {current.view === 'devices' && <Suspense fallback={<p role="status">Loading the devices…</p>}><DevicesView /></Suspense>}
        {current.view === 'tasks' && <Suspense fallback={<p role="status">Loading the tasks…</p>}><TasksView /></Suspense>}
        {current.view === 'recordings' && <Suspense fallback={<p role="status">Loading the recordings…</p>}><RecordingsView name={current.name} /></Suspense>}
      </main>
      <ToastRegion />
    </>
  );
}

export function App() {
  useEffect(() => {
    if (pairingCode.value === null) void loadSessions();
  }, []);
  const code = pairingCode.value;
  if (auth.value === 'signed-in') return <SignedIn />;
  if (auth.value === 'unknown' && code === null) return <main aria-busy="true"><h1>specterm</h1><p role="status">Connecting…</p></main>;
  return (
    <SignIn code={auth.value === 'unknown' ? code : null} onPaired={() => { pairingCode.value = null; void loadSessions(); }} />
  );
}
