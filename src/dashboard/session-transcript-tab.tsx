/**
 * The session view's Transcript tab: the conversation as text, read from the agent's own history
 * by the daemon (`getTranscript`, docs/transcripts.md) — the last turns first read, earlier ones on
 * request — and kept live by the `transcript/<id>` topic, whose `transcript.turn` events replace
 * a turn in place as it grows. Under it the send box, so a phone (where this is the default tab)
 * can read and answer without the terminal. A session whose spec names no history says so.
 * @module
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Transcript, Turn } from '../protocol/transcripts.js';
import { scopeAllows } from '../protocol/scopes.js';
import { call } from './api-client.js';
import type { SessionTabContext } from './session-tabs.js';
import { SendBox } from './send-box.js';
import { newestEventSeq, scope } from './state.js';
import { mergeTurn, usageText } from './transcript-model.js';
import { TurnView } from './transcript-parts.js';

/** Turns read at first; a long conversation's earlier ones come in steps of this many. */
const TURNS_STEP = 50;
/** A turn's end may bring several events at once (text, usage): one re-read for the total. */
const TOTAL_REREAD_MS = 300;

function sourceText(transcript: Transcript): string {
  return transcript.source.kind === 'native'
    ? `Read from the agent's own history (${transcript.source.format})`
    : 'Read from the terminal screen (no history this daemon can read)';
}

export function TranscriptTab(ctx: SessionTabContext) {
  const { session, live } = ctx;
  const transcript = useSignal<Transcript | null | undefined>(undefined);
  const error = useSignal<string | null>(null);
  const wanted = useSignal(TURNS_STEP);

  useEffect(() => {
    let stopped = false;
    let loaded = false;
    let early: Turn[] = [];
    let reread: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await call('getTranscript', { params: { id: session.id }, query: { last: wanted.value } });
        if (stopped) return;
        transcript.value = answer.transcript;
        loaded = true;
        error.value = null;
        for (const turn of early) apply(turn);
        early = [];
      } catch (e) {
        if (!stopped) error.value = e instanceof Error ? e.message : String(e);
      }
    };
    const apply = (turn: Turn) => {
      const held = transcript.value;
      // The first turn of a history that was not there yet: read it whole (source, usage).
      if (!held) return void load();
      const before = held.turns.find((t) => t.index === turn.index);
      transcript.value = { ...held, turns: mergeTurn(held.turns, turn) };
      // The session's total usage is the daemon's sum: read again once a turn has ended.
      if (turn.ended_at !== null && before?.ended_at == null) {
        clearTimeout(reread);
        reread = setTimeout(() => void load(), TOTAL_REREAD_MS);
      }
    };
    let subscribed = false;
    void load();
    // The history is read whole above: the topic brings only the turns that grow from now on.
    const unsubscribe = live.subscribeEvents(`transcript/${session.id}`, {
      from: newestEventSeq(),
      // A reconnect may have missed turns: read again (not on the first subscription).
      subscribed: () => { if (subscribed) void load(); subscribed = true; },
      event: (event) => {
        if (event.type !== 'transcript.turn') return;
        if (loaded) apply(event.turn); else early.push(event.turn);
      },
    });
    return () => { stopped = true; clearTimeout(reread); unsubscribe(); };
  }, [session.id, live, wanted.value]);

  const canInput = scope.value !== null && scopeAllows(scope.value, 'input');
  const running = session.lifecycle === 'running';
  const t = transcript.value;
  const earlier = t && t.turns.length > 0 ? t.turns[0]!.index : 0;
  return (
    <div class="transcript-tab">
      {error.value !== null && <p class="problem" role="alert">The transcript could not be read: {error.value}</p>}
      {t === undefined && error.value === null && <p role="status">Loading the transcript…</p>}
      {t === null && <p class="empty">No transcript yet: the agent's first answer shows here when its turn ends{session.native_session_id ? '' : ' (read off its screen: its spec names no history this daemon reads)'}. The Terminal tab shows what it does now.</p>}
      {t && (
        <>
          <p class="transcript-source note">
            {sourceText(t)}{t.usage && <> · <span class="transcript-total">session total {usageText(t.usage)}</span></>}
          </p>
          {t.warnings.length > 0 && (
            <ul class="transcript-warnings" aria-label="Problems reading the history">
              {t.warnings.map((w) => <li key={w.code}>{w.message}{w.count > 1 ? ` (${w.count} times)` : ''}</li>)}
            </ul>
          )}
          {earlier > 0 && <button type="button" class="earlier" onClick={() => { wanted.value += TURNS_STEP; }}>Show earlier turns ({earlier} more)</button>}
          {t.turns.length === 0
            ? <p class="empty">No turns yet: send the agent a message and its answer shows here as it writes it.</p>
            : <ol class="turns" aria-label="Conversation">{t.turns.map((turn) => <TurnView key={turn.index} turn={turn} />)}</ol>}
        </>
      )}
      <SendBox sessionId={session.id} enabled={canInput && running} events={ctx.lastEvent} />
    </div>
  );
}
