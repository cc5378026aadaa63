/**
 * Recordings (`/recordings`, `/recordings/<name>`): the list (each titled by its session and
 * time, linked to that session, downloadable as `.cast`), and one recording played back on
 * the daemon — a scrubber over its time, the state timeline under it (replayed through the
 * harness), and at the scrubbed instant the explain view: the screen with its sections, the
 * transitions, and the report `specterm explain` prints. A play button walks the scrubber on.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { RecordingExplain, RecordingInfo, RecordingTimeline } from '../protocol/recordings.js';
import { call } from './api-client.js';
import { formatDuration } from './countdown.js';
import { TransitionTable } from './debugger-transitions.js';
import { ScreenOverlay } from './overlay.js';
import { navigate, sessions } from './state.js';

const PLAY_STEP_MS = 250;

/** "refactor · 06/12/2026, 10:32:05": the session a recording was made from and when (local time). */
export function recordingTitle(r: RecordingInfo): string {
  return `${r.session_name ?? r.session_id ?? r.name} · ${new Date(r.created_at).toLocaleString()}`;
}

/**
 * Saves recording `name` as `<name>.cast`: read with the page's credentials (a cookie, never a
 * token in a URL), then handed to the browser as a file.
 */
async function downloadCast(name: string): Promise<void> {
  const cast = await call('getRecordingCast', { params: { name } });
  const url = URL.createObjectURL(new Blob([cast.content], { type: 'application/x-asciicast' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: cast.file_name });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The recording's session (a link while it is listed) and, once written, its `.cast` download. */
function RecordingLinks(props: { recording: RecordingInfo }) {
  const r = props.recording;
  const error = useSignal<string | null>(null);
  const listed = r.session_id !== null && (sessions.value ?? []).some((s) => s.id === r.session_id);
  const label = r.session_name ?? r.session_id;
  const href = `/sessions/${encodeURIComponent(r.session_id ?? '')}`;
  return (
    <span class="recording-links">
      {listed
        ? <a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>Session {label}</a>
        : label !== null && <span class="muted">session {label} (removed)</span>}
      {!r.active && (
        <button type="button" aria-label={`Download .cast of ${r.name}`} onClick={() => {
          error.value = null;
          downloadCast(r.name).catch((e: Error) => { error.value = e.message; });
        }}>Download .cast</button>
      )}
      {error.value ? <span class="problem" role="alert">{error.value}</span> : null}
    </span>
  );
}

function useRecordings() {
  const list = useSignal<RecordingInfo[] | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    call('listRecordings').then((r) => { list.value = r.recordings; }, (e: Error) => { error.value = e.message; });
  }, []);
  return { list: list.value, error: error.value };
}

function RecordingList() {
  const { list, error } = useRecordings();
  if (error) return <p class="problem" role="alert">{error}</p>;
  if (list === null) return <p role="status">Loading the recordings…</p>;
  if (list.length === 0) return <p class="empty">No recordings yet: open a session's debugger and press Record.</p>;
  return (
    <ul class="recordings">
      {list.map((r) => (
        <li key={r.name} data-recording={r.name}>
          {r.active ? <span class="recording-title">{recordingTitle(r)} <span class="badge badge-generating">recording</span></span> : (
            <a class="recording-title" href={`/recordings/${r.name}`} onClick={(e) => { e.preventDefault(); navigate(`/recordings/${r.name}`); }}>{recordingTitle(r)}</a>
          )}
          <span class="muted"> {r.spec_id}{r.duration_ms !== null ? ` · ${formatDuration(r.duration_ms)}` : ''} · <code>{r.name}</code></span>
          <RecordingLinks recording={r} />
        </li>
      ))}
    </ul>
  );
}

/** The state in force at `atMs` on the timeline. */
function stateAt(timeline: RecordingTimeline, atMs: number) {
  let current = timeline.states[0];
  for (const s of timeline.states) if (s.at_ms <= atMs) current = s;
  return current;
}

function Playback(props: { name: string }) {
  const timeline = useSignal<RecordingTimeline | null>(null);
  const at = useSignal(0);
  const explained = useSignal<RecordingExplain | null>(null);
  const playing = useSignal(false);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    call('getRecordingTimeline', { params: { name: props.name } }).then((t) => { timeline.value = t; }, (e: Error) => { error.value = e.message; });
  }, [props.name]);
  // Each instant is one replay on the daemon: ask for the latest only, after the scrubber rests.
  useEffect(() => {
    if (!timeline.value) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      call('explainRecording', { params: { name: props.name }, query: { at_ms: at.value }, signal: controller.signal })
        .then((e) => { explained.value = e; error.value = null; }, (e: Error) => { if (!controller.signal.aborted) error.value = e.message; });
    }, 120);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [props.name, timeline.value, at.value]);
  useEffect(() => {
    if (!playing.value || !timeline.value) return;
    const end = timeline.value.end_ms;
    const timer = setInterval(() => {
      if (at.value >= end) { playing.value = false; return; }
      at.value = Math.min(end, at.value + PLAY_STEP_MS);
    }, PLAY_STEP_MS);
    return () => clearInterval(timer);
  }, [playing.value, timeline.value]);
  const t = timeline.value;
  if (error.value && !t) return <p class="problem" role="alert">{error.value}</p>;
  if (!t) return <p role="status">Replaying the recording on the daemon…</p>;
  const end = Math.max(1, t.end_ms);
  const now = stateAt(t, at.value);
  const e = explained.value;
  return (
    <div class="playback">
      <div class="scrubber">
        <button type="button" onClick={() => { if (at.value >= t.end_ms) at.value = 0; playing.value = !playing.value; }}>{playing.value ? 'Pause' : 'Play'}</button>
        <label>
          <span class="visually-hidden">Instant in the recording</span>
          <input type="range" min={0} max={t.end_ms} step={10} value={at.value} aria-valuetext={`${formatDuration(at.value)}, state ${now?.state ?? '?'}`}
            onInput={(ev) => { playing.value = false; at.value = Number((ev.target as HTMLInputElement).value); }} />
        </label>
        <span class="scrub-time" data-at-ms={at.value}>{(at.value / 1000).toFixed(3)} s / {(t.end_ms / 1000).toFixed(3)} s</span>
      </div>
      <ol class="state-timeline" aria-label="State timeline">
        {t.states.map((s, i) => {
          const until = t.states[i + 1]?.at_ms ?? t.end_ms;
          return (
            <li key={`${s.at_ms}-${i}`} class={`segment segment-${s.status}${s === now ? ' segment-current' : ''}`} data-state={s.state} data-at-ms={s.at_ms}
              style={{ left: `${(s.at_ms / end) * 100}%`, width: `${(Math.max(0, until - s.at_ms) / end) * 100}%` }}>
              <button type="button" title={`${s.state} from ${(s.at_ms / 1000).toFixed(3)} s`} onClick={() => { playing.value = false; at.value = s.at_ms; }}>{s.state}</button>
            </li>
          );
        })}
      </ol>
      {error.value ? <p class="problem" role="alert">{error.value}</p> : null}
      {e ? (
        <div class="explain" data-explained-at={e.at_ms}>
          <p role="status">At {(e.at_ms / 1000).toFixed(3)} s: state <strong data-state={e.state.id}>{e.state.label}</strong> <code>{e.state.id}</code> for {formatDuration(e.state_age_ms)}</p>
          <div class="debugger-grid">
            <ScreenOverlay lines={e.screen} sections={e.sections} cursorRow={e.cursor_row} label={`Screen at ${(e.at_ms / 1000).toFixed(3)} s`} />
            <TransitionTable transitions={e.transitions} now={e.at_ms} from={e.state.id} />
          </div>
          <details>
            <summary>The report of <code>specterm explain</code></summary>
            <pre class="explain-text" tabIndex={0}>{e.text}</pre>
          </details>
        </div>
      ) : null}
    </div>
  );
}

/** One recording: titled by its session and time, its links, and the player. */
function RecordingPage(props: { name: string }) {
  const { list } = useRecordings();
  const info = list?.find((r) => r.name === props.name);
  return (
    <>
      <h2 id="recordings-title">Recording {info ? recordingTitle(info) : props.name}</h2>
      {info && <p class="recording-head"><code>{info.name}</code> <RecordingLinks recording={info} /></p>}
      <Playback name={props.name} />
    </>
  );
}

export default function RecordingsView(props: { name: string | null }) {
  return (
    <section class="recordings-view" data-view="recordings" aria-labelledby="recordings-title">
      {props.name ? <RecordingPage name={props.name} /> : <><h2 id="recordings-title">Recordings</h2><RecordingList /></>}
    </section>
  );
}

/** Start/stop recording a session (shown in its debugger). */
export function RecordButton(props: { sessionId: string }) {
  const active = useSignal<RecordingInfo | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    call('listRecordings').then((r) => { active.value = r.recordings.find((x) => x.active && x.session_id === props.sessionId) ?? null; }, () => {});
  }, [props.sessionId]);
  const toggle = async () => {
    try {
      if (active.value) {
        const done = await call('stopRecording', { params: { id: props.sessionId } });
        active.value = null;
        navigate(`/recordings/${done.name}`);
      } else {
        active.value = await call('startRecording', { params: { id: props.sessionId }, body: {} });
      }
      error.value = null;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  };
  return (
    <span class="record">
      <button type="button" aria-pressed={active.value !== null} onClick={() => void toggle()}>{active.value ? `Stop recording ${active.value.name}` : 'Record'}</button>
      {error.value ? <span class="problem" role="alert"> {error.value}</span> : null}
    </span>
  );
}
