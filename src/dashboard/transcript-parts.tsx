/**
 * One turn of a transcript as the Transcript tab shows it: the person's message, then what the
 * agent did in order — its text as markdown (markdown.tsx: elements, never HTML), each tool call
 * collapsed with its input and output, file edits as diffs — and the turn's usage. Everything
 * from the agent is text in text nodes: input as JSON, output and diffs verbatim.
 * @module
 */
import type { FileEdit, ToolCall, Turn } from '../protocol/transcripts.js';
import { durationLabel } from './attention.js';
import { renderMarkdown } from './markdown.js';
import { diffLineKind, usageText } from './transcript-model.js';

const STATUS_TEXT: Record<ToolCall['status'], string> = { pending: 'running', ok: 'done', error: 'failed', denied: 'denied' };
const EDIT_TEXT: Record<FileEdit['kind'], string> = { create: 'Created', edit: 'Edited', delete: 'Deleted' };
/** The summary line shows this much of a call's input; the whole of it is one tap away. */
const SUMMARY_CHARS = 80;

/** The argument that says most about a call (a command, a path), else its JSON, on one line. */
function inputSummary(input: unknown): string {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : null;
  const telling = fields && ['command', 'file_path', 'path', 'pattern', 'url', 'query'].map((k) => fields[k]).find((v) => typeof v === 'string');
  const text = (typeof telling === 'string' ? telling : typeof input === 'string' ? input : JSON.stringify(input) ?? '').replace(/\s+/g, ' ').trim();
  return text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 1)}…` : text;
}

function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input, null, 2) ?? '';
}

export function DiffView(props: { edit: FileEdit }) {
  const { edit } = props;
  const lines = edit.diff.replace(/\n$/, '').split('\n');
  return (
    <figure class="edit">
      <figcaption>{EDIT_TEXT[edit.kind]} <code>{edit.path}</code></figcaption>
      <pre class="diff" tabIndex={0} aria-label={`Changes to ${edit.path}`}><code>{lines.map((line, i) => <span key={i} class={`diff-${diffLineKind(line)}`}>{line}{'\n'}</span>)}</code></pre>
    </figure>
  );
}

export function ToolCallView(props: { call: ToolCall }) {
  const { call } = props;
  const summary = inputSummary(call.input);
  return (
    <details class="tool-call" data-status={call.status} data-tool-id={call.id}>
      <summary>
        <span class="tool-name">{call.name}</span>
        <span class={`tool-status tool-${call.status}`}>{STATUS_TEXT[call.status]}{call.duration_ms !== null ? ` in ${durationLabel(call.duration_ms)}` : ''}</span>
        {summary !== '' && <code class="tool-summary">{summary}</code>}
        {call.edits.length > 0 && <span class="tool-edits">{call.edits.length === 1 ? '1 file changed' : `${call.edits.length} files changed`}</span>}
      </summary>
      <div class="tool-body">
        <p class="tool-label">Input</p>
        <pre class="tool-input" tabIndex={0} aria-label={`Input of ${call.name}`}>{inputText(call.input)}</pre>
        <p class="tool-label">Output</p>
        <pre class="tool-output" tabIndex={0} aria-label={`Output of ${call.name}`}>{call.output ?? (call.status === 'pending' ? 'No output yet: the tool is still running.' : 'No output.')}</pre>
        {call.edits.map((edit, i) => <DiffView key={i} edit={edit} />)}
      </div>
    </details>
  );
}

const clock = (at: number | null) => (at === null ? '' : new Date(at).toLocaleTimeString());

export function TurnView(props: { turn: Turn }) {
  const { turn } = props;
  const took = turn.started_at !== null && turn.ended_at !== null ? durationLabel(turn.ended_at - turn.started_at) : null;
  return (
    <li class="turn" id={`turn-${turn.index}`} data-turn-index={turn.index} data-ended={turn.ended_at !== null}>
      <h3 class="turn-head">Turn {turn.index + 1}<span class="turn-time">{clock(turn.started_at)}</span></h3>
      {turn.user
        ? <div class="turn-user"><span class="who">You</span><p class="user-text">{turn.user.text}</p></div>
        : <p class="turn-user note">The agent went on without a message (a start or a resume).</p>}
      <div class="turn-agent">
        {turn.items.map((item, i) => (item.kind === 'text'
          ? <div key={i} class="turn-text">{renderMarkdown(item.text)}</div>
          : <ToolCallView key={i} call={item} />))}
        {turn.ended_at === null && <p class="turn-working note" role="status">The agent is working on this turn…</p>}
      </div>
      {(turn.usage || turn.model || took) && (
        <p class="turn-usage note">{[turn.usage && usageText(turn.usage), turn.model, took && `took ${took}`].filter(Boolean).join(' · ')}</p>
      )}
    </li>
  );
}
