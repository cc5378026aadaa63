/**
 * The tabs of the session view, one route each (`/sessions/<id>` is the screen's default one —
 * the Terminal, or the Transcript on a phone — `/sessions/<id>/<tab>` any). A view that belongs to one session (the debugger, the
 * spec editor) adds one entry here; `render` gets what every tab may need.
 * @module
 */
import type { ComponentChild } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { HistoryView } from './history-view.js';
import type { LiveConnection } from './live.js';
import { TerminalTab } from './session-terminal-tab.js';
import { TranscriptTab } from './session-transcript-tab.js';
import { defaultSessionTab } from './state.js';

export interface SessionTabContext {
  session: SessionDetail;
  live: LiveConnection;
  /** The session's latest event (its `session/<id>` topic), null before the first. */
  lastEvent: DaemonEvent | null;
  /** Re-reads the session (after a press that changed it). */
  reload: () => void;
}

/** The debugger loads on demand: most visits never open it. */
const DebuggerView = lazy(() => import('./debugger-view.js'));
const SpecEditor = lazy(() => import('./spec-editor.js'));

export interface SessionTab { id: string; label: string; render: (ctx: SessionTabContext) => ComponentChild }

export const SESSION_TABS: readonly SessionTab[] = [
  { id: 'terminal', label: 'Terminal', render: (ctx) => <TerminalTab {...ctx} /> },
  { id: 'transcript', label: 'Transcript', render: (ctx) => <TranscriptTab {...ctx} /> },
  { id: 'history', label: 'History', render: (ctx) => <HistoryView sessionId={ctx.session.id} /> },
  {
    id: 'debug', label: 'Debugger',
    render: (ctx) => <Suspense fallback={<p role="status">Loading the debugger…</p>}><DebuggerView sessionId={ctx.session.id} sessionName={ctx.session.name} lastEvent={ctx.lastEvent} /></Suspense>,
  },
  { id: 'spec', label: 'Spec', render: (ctx) => <Suspense fallback={<p role="status">Loading the spec editor…</p>}><SpecEditor sessionId={ctx.session.id} onSaved={ctx.reload} /></Suspense> },
];

/** The path of tab `tab` of session `id` (the screen's default tab is the session's own path). */
export function sessionTabPath(id: string, tab: string): string {
  const base = `/sessions/${encodeURIComponent(id)}`;
  return tab === defaultSessionTab() ? base : `${base}/${tab}`;
}
