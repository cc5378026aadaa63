/**
 * The badge of an agent's own work still running (issue 29 item 4): a session idle at its prompt
 * while its background shells or sub-agents run is not done, and its card and page say so beside
 * the status badge ("1 background shell"). "Turn finished" waits for that work (docs/daemon.md).
 */
import type { SessionDetail } from '../protocol/sessions.js';

/** Nothing unless the running session's state reports background work. */
export function BackgroundBadge({ session }: { session: SessionDetail }) {
  const work = session.lifecycle === 'running' ? session.state?.background : undefined;
  if (!work) return null;
  return (
    <span class="badge badge-background" title={`The agent's own work is still running (${work.what}); "turn finished" waits for it`}>
      <span aria-hidden="true">⟳ </span>{work.what}
    </span>
  );
}
