/**
 * Search across every session's transcript, from the overview (`searchTranscripts`): words as
 * they are typed (a quarter second after the last key), each hit with its session's name, who
 * said it, and the snippet with the match marked — text only, the `[` `]` the daemon puts around
 * the match become `<mark>`. A hit links to its session's Transcript tab.
 * @module
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { SessionDetail } from '../protocol/sessions.js';
import type { TranscriptSearchHit } from '../protocol/transcripts.js';
import { call } from './api-client.js';
import { navigate } from './state.js';
import { snippetParts } from './transcript-model.js';

const TYPING_PAUSE_MS = 250;
const MAX_HITS = 20;
const ROLE_TEXT: Record<TranscriptSearchHit['role'], string> = { user: 'you said', assistant: 'the agent said', tool: 'a tool printed' };

export function TranscriptSearch(props: { sessions: readonly SessionDetail[] }) {
  const query = useSignal('');
  const result = useSignal<{ q: string; hits: TranscriptSearchHit[] } | null>(null);
  const error = useSignal<string | null>(null);

  useEffect(() => {
    const q = query.value.trim();
    if (q === '') { result.value = null; error.value = null; return; }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      call('searchTranscripts', { query: { q, limit: MAX_HITS }, signal: controller.signal })
        .then((answer) => { result.value = { q, hits: answer.hits }; error.value = null; })
        .catch((e: unknown) => { if (!controller.signal.aborted) error.value = e instanceof Error ? e.message : String(e); });
    }, TYPING_PAUSE_MS);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [query.value]);

  const names = new Map(props.sessions.map((s) => [s.id, s.name ?? s.id]));
  const r = result.value;
  return (
    <div class="transcript-search">
      <form role="search" aria-label="Search transcripts" onSubmit={(e) => e.preventDefault()}>
        <label class="field">
          <span>Search what the agents said</span>
          <input type="search" name="transcript-search" placeholder="words in any transcript" value={query.value} spellcheck={false}
            onInput={(e) => { query.value = (e.target as HTMLInputElement).value; }} />
        </label>
      </form>
      {error.value !== null && <p class="problem" role="alert">The search failed: {error.value}</p>}
      {r && (r.hits.length === 0
        ? <p class="empty" role="status">No transcript says “{r.q}”.</p>
        : (
          <ul class="search-hits" aria-label={`Transcripts that say “${r.q}”`}>
            {r.hits.map((hit) => {
              const href = `/sessions/${encodeURIComponent(hit.session_id)}/transcript`;
              return (
                <li key={`${hit.session_id}:${hit.turn_index}:${hit.role}`} class="search-hit" data-session-id={hit.session_id} data-turn-index={hit.turn_index}>
                  <a href={href} onClick={(e) => { e.preventDefault(); navigate(href); }}>
                    <span class="session-name">{names.get(hit.session_id) ?? hit.session_id}</span>
                    <span class="hit-where note">turn {hit.turn_index + 1}, {ROLE_TEXT[hit.role]}</span>
                    <span class="snippet">{snippetParts(hit.snippet).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : p.text))}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        ))}
    </div>
  );
}
