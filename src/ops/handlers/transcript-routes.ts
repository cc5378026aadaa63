/**
 * The agent's work as text: a session's transcript and search across every session's
 * (docs/transcripts.md). The resume that starts a CLI again on its conversation is a session
 * route, beside its twin restart.
 * @module
 */
import type { SessionManager } from '../../daemon/session-manager.js';
import type { SessionTranscripts } from '../../daemon/session-transcripts.js';
import type { Store } from '../../store/index.js';
import type { RouteHandlers } from '../contracts.js';

export function transcriptRoutes(d: { manager: SessionManager; transcripts: SessionTranscripts; store: Store }): RouteHandlers {
  return {
    getTranscript: (input) => {
      const session = d.manager.get(input.params.id);
      const transcript = d.transcripts.get(session.id);
      const last = input.query.last;
      return { session_id: session.id, transcript: transcript && last !== undefined ? { ...transcript, turns: transcript.turns.slice(-last) } : transcript };
    },
    searchTranscripts: (input) => ({ hits: d.store.transcripts.search(input.query.q, input.query.limit) }),
  };
}
