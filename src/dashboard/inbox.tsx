/**
 * The approvals inbox: every pending approval across sessions as a card with the modal's title
 * and text and its buttons by their displayed number. An `approval` is answered in one click
 * (quoting the fingerprint the card shows); a picker or a confirm is marked as needing the
 * person: only a person presses it, never a policy. Each press shows its outcome: pressed and
 * cleared, pressed but still shown, or refused because the modal changed, with the modal that
 * is up now (from the 409's `current`), answerable from the card.
 * A modal the person opened themselves (`opened_by: "person"`, e.g. the model picker after
 * `/model`) waits for nobody: it is listed apart, under "Opened by you", and not counted.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Approval } from '../protocol/approvals.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { scopeAllows } from '../protocol/scopes.js';
import { ApiProblem, call } from './api-client.js';
import { isOpenedByPerson } from './attention.js';
import { navigate, scope } from './state.js';

/** What a card asks about: the approval as listed, or the modal a refusal said is up now. */
interface Asked { id: string; fingerprint: string; title: string | null; text: string | null; buttons: Approval['buttons']; kind: Approval['kind'] }

type Outcome =
  | { kind: 'pressing'; label: string }
  | { kind: 'cleared' | 'still_shown'; label: string }
  | { kind: 'stale'; label: string; message: string; current: Asked | null }
  | { kind: 'failed'; label: string; message: string };

const buttonText = (b: { index: number; label: string }) => `${b.index}. ${b.label}`;

/** The modal in a stale refusal's `current` member, when it is one. */
function currentModalOf(problem: ApiProblem): Asked | null {
  const c = problem.body.current as { approval_id?: unknown; fingerprint?: unknown; title?: unknown; buttons?: unknown; kind?: unknown } | null | undefined;
  if (!c || typeof c.approval_id !== 'string' || typeof c.fingerprint !== 'string' || !Array.isArray(c.buttons)) return null;
  return { id: c.approval_id, fingerprint: c.fingerprint, title: typeof c.title === 'string' ? c.title : null, text: null, buttons: c.buttons as Asked['buttons'], kind: (c.kind ?? null) as Asked['kind'] };
}

function ApprovalCard(props: { approval: Approval; session: SessionDetail | undefined; canAnswer: boolean; onAnswered: () => void; onDismiss: (() => void) | null }) {
  const asked = useSignal<Asked>({ ...props.approval });
  const outcome = useSignal<Outcome | null>(null);
  const a = asked.value;
  const sessionName = props.session?.name ?? props.approval.session_id;
  const needsYou = a.kind !== 'approval';
  const press = async (button: { index: number; label: string }) => {
    const label = buttonText(button);
    outcome.value = { kind: 'pressing', label };
    try {
      const result = await call('answerApproval', { params: { id: a.id }, body: { button: button.index, fingerprint: a.fingerprint } });
      outcome.value = { kind: result.result, label };
      props.onAnswered();
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'APPROVAL_STALE') {
        const current = currentModalOf(error);
        outcome.value = { kind: 'stale', label, message: error.message, current };
        if (current) asked.value = current;
      } else {
        outcome.value = { kind: 'failed', label, message: error instanceof Error ? error.message : String(error) };
      }
    }
  };
  const o = outcome.value;
  const done = o?.kind === 'cleared';
  // Where the CLI's cursor is (what Enter would choose), read live from the session's modal.
  const live = props.session?.modal;
  const cursorOn = live && live.approval_id === a.id ? live.buttons.find((b) => b.current)?.index : undefined;
  const titleId = `approval-${props.approval.id}-title`;
  return (
    <li class={`approval-card${needsYou ? ' needs-you' : ''}`} data-approval-id={a.id} data-kind={a.kind ?? 'modal'} aria-labelledby={titleId}>
      <div class="card-head">
        <h3 id={titleId}>{a.title ?? 'A modal is up'}</h3>
        {needsYou
          ? <span class="badge badge-approval" title="A picker or a confirm: only a person answers it, never a policy">needs you · {a.kind ?? 'modal'}</span>
          : <span class="badge badge-answerable" title="A yes/no approval: one click answers it">approval</span>}
      </div>
      <p class="card-session">
        <a href={`/sessions/${encodeURIComponent(props.approval.session_id)}`} onClick={(e) => { e.preventDefault(); navigate(`/sessions/${encodeURIComponent(props.approval.session_id)}`); }}>{sessionName}</a>
        {props.session ? ` · ${props.session.spec.id} · ${props.session.cwd}` : ''}
      </p>
      {a.text && <pre class="card-text">{a.text}</pre>}
      <div class="card-buttons" role="group" aria-label={`Answers to ${a.title ?? 'the modal'}`}>
        {a.buttons.map((b) => (
          <button type="button" key={`${a.fingerprint}-${b.index}`} data-button-index={b.index} disabled={!props.canAnswer || done || o?.kind === 'pressing'}
            aria-current={b.index === cursorOn ? 'true' : undefined} title={b.index === cursorOn ? 'The CLI\'s cursor is on this option' : undefined}
            onClick={() => void press(b)}>{b.index === cursorOn && <span class="cursor-mark" aria-hidden="true">❯ </span>}{buttonText(b)}</button>
        ))}
      </div>
      {!props.canAnswer && <p class="hint">This device has the read scope: pair it with the approve scope to answer.</p>}
      {o && (
        <div class={`outcome outcome-${o.kind}`} role="status">
          {o.kind === 'pressing' && `Pressing ${o.label}…`}
          {o.kind === 'cleared' && `Pressed ${o.label}: the modal cleared.`}
          {o.kind === 'still_shown' && `Pressed ${o.label}, but the modal is still on screen; look at the session.`}
          {o.kind === 'failed' && `Not pressed: ${o.message}`}
          {o.kind === 'stale' && (o.current
            ? `Refused, nothing was pressed: the modal changed. The one up now is shown above: ${o.current.title ?? 'untitled'} (${o.current.buttons.map(buttonText).join(', ')}).`
            : `Refused, nothing was pressed: the modal is gone. ${o.message}`)}
        </div>
      )}
      {props.onDismiss && <button type="button" class="dismiss" onClick={props.onDismiss}>Dismiss</button>}
    </li>
  );
}

export function Inbox(props: { sessions: SessionDetail[] | null }) {
  const approvals = useSignal<Approval[] | null>(null);
  /** Cards answered on this page, kept (with their outcome) after they leave the list until dismissed. */
  const answered = useSignal<ReadonlyMap<string, Approval>>(new Map());
  const error = useSignal<string | null>(null);
  const load = async () => {
    try {
      approvals.value = (await call('listApprovals')).approvals;
      error.value = null;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  };
  // The session list changes with every event that can open or close a modal: reload with it.
  useEffect(() => { void load(); }, [props.sessions]);
  const canAnswer = scope.value !== null && scopeAllows(scope.value, 'approve');
  const byId = new Map((props.sessions ?? []).map((s) => [s.id, s]));
  const pending = approvals.value;
  const all = pending === null ? null : [...pending, ...[...answered.value.values()].filter((a) => !pending.some((p) => p.id === a.id))];
  const list = all?.filter((a) => !isOpenedByPerson(a)) ?? null;
  const yours = all?.filter(isOpenedByPerson) ?? [];
  const keep = (a: Approval) => { answered.value = new Map(answered.value).set(a.id, a); void load(); };
  const dismiss = (id: string) => { const next = new Map(answered.value); next.delete(id); answered.value = next; };
  const cardOf = (a: Approval) => <ApprovalCard key={a.id} approval={a} session={byId.get(a.session_id)} canAnswer={canAnswer}
    onAnswered={() => keep(a)} onDismiss={pending?.some((p) => p.id === a.id) ? null : () => dismiss(a.id)} />;
  return (
    <section data-view="inbox" aria-labelledby="inbox-title">
      <h2 id="inbox-title">Approvals inbox</h2>
      {error.value !== null && <div class="problem" role="alert"><p>The approvals could not be read: {error.value}</p><button type="button" onClick={() => void load()}>Retry</button></div>}
      {list === null && error.value === null && <p role="status">Loading…</p>}
      {pending !== null && pending.every(isOpenedByPerson) && <p class="empty">Nothing waits for you: no session shows a modal{yours.length > 0 ? ' you did not open yourself' : ''}.</p>}
      {list !== null && list.length > 0 && (
        <ul class="approvals">
          {list.map(cardOf)}
        </ul>
      )}
      {yours.length > 0 && (
        <section class="opened-by-you" aria-labelledby="opened-by-you-title">
          <h3 id="opened-by-you-title">Opened by you</h3>
          <p class="hint">You opened these yourself (keys, a message such as /model, a control): they wait for nobody and are not counted.</p>
          <ul class="approvals">
            {yours.map(cardOf)}
          </ul>
        </section>
      )}
    </section>
  );
}
