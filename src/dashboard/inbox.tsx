/**
 * The approvals inbox: every pending approval across sessions as a card with the modal's title
 * and text and its buttons by their displayed number. An `approval` is answered in one click
 * (prompt-answer.tsx: the press, its outcome, a refusal's swap to the modal up now); a picker or
 * a confirm is marked as needing the person: only a person presses it, never a policy.
 * A modal the person opened themselves (`opened_by: "person"`, e.g. the model picker after
 * `/model`) waits for nobody: it is listed apart, under "Opened by you", and not counted.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { Approval } from '../protocol/approvals.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { scopeAllows } from '../protocol/scopes.js';
import { call } from './api-client.js';
import { isOpenedByPerson } from './attention.js';
import { PromptButtons, PromptOutcome, usePromptAnswer } from './prompt-answer.js';
import { navigate, scope } from './state.js';

function ApprovalCard(props: { approval: Approval; session: SessionDetail | undefined; fleet: boolean; canAnswer: boolean; onPressing: () => void; onAnswered: () => void; onDismiss: (() => void) | null }) {
  // A card kept after its approval left the list (onDismiss set) is answered: never pressable again.
  const shown = usePromptAnswer(props.approval, props.onAnswered, props.onDismiss !== null);
  // Held from the press on: the approval can leave the list (its modal cleared) before the
  // answer comes back, and the card must not go, and come back without its outcome, meanwhile.
  const answer = { ...shown, press: (button: Parameters<typeof shown.press>[0]) => { props.onPressing(); return shown.press(button); } };
  const a = answer.asked;
  const sessionName = props.session?.name ?? props.approval.session_id;
  const needsYou = a.kind !== 'approval';
  // Where the CLI's cursor is (what Enter would choose), read live from the session's modal.
  const live = props.session?.modal;
  const cursorOn = live && live.approval_id === a.id ? live.buttons.find((b) => b.current)?.index : undefined;
  const titleId = `approval-${props.approval.id}-title`;
  return (
    <li class={`approval-card${needsYou ? ' needs-you' : ''}${answer.outcome?.kind === 'cleared' ? ' answered' : ''}`} data-approval-id={a.id} data-kind={a.kind ?? 'modal'} aria-labelledby={titleId}>
      <div class="card-head">
        <h3 id={titleId}>{a.title ?? 'A modal is up'}</h3>
        {needsYou
          ? <span class="badge badge-approval" title="A picker or a confirm: only a person answers it, never a policy">needs you · {a.kind ?? 'modal'}</span>
          : <span class="badge badge-answerable" title="A yes/no approval: one click answers it">approval</span>}
      </div>
      <p class="card-session">
        <a href={`/sessions/${encodeURIComponent(props.approval.session_id)}`} onClick={(e) => { e.preventDefault(); navigate(`/sessions/${encodeURIComponent(props.approval.session_id)}`); }}>{sessionName}</a>
        {/* In a fleet, which machine asks: the same path on two machines is two different things. */}
        {props.fleet && props.approval.node ? ` · on ${props.approval.node}` : ''}
        {props.session ? ` · ${props.session.spec.id} · ${props.session.cwd}` : ''}
      </p>
      {a.text && <pre class="card-text">{a.text}</pre>}
      <PromptButtons answer={answer} canAnswer={props.canAnswer} cursorOn={cursorOn} />
      <PromptOutcome outcome={answer.outcome} />
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
  // Any change of the list (a state patched in, a reload) may be a modal opening or closing: read
  // again once a burst of changes is over (as often as the list itself used to be reloaded).
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) { mounted.current = true; void load(); return undefined; }
    const timer = setTimeout(() => void load(), 100);
    return () => clearTimeout(timer);
  }, [props.sessions]);
  const canAnswer = scope.value !== null && scopeAllows(scope.value, 'approve');
  const byId = new Map((props.sessions ?? []).map((s) => [s.id, s]));
  const fleet = new Set((props.sessions ?? []).map((s) => s.node ?? '')).size > 1;
  const pending = approvals.value;
  const all = pending === null ? null : [...pending, ...[...answered.value.values()].filter((a) => !pending.some((p) => p.id === a.id))];
  const list = all?.filter((a) => !isOpenedByPerson(a)) ?? null;
  const yours = all?.filter(isOpenedByPerson) ?? [];
  // The daemon lists an answered approval until it has seen the modal go, which can come after the
  // last event that made this page read again: read until it leaves (at most ~10 s).
  const hold = (a: Approval) => { answered.value = new Map(answered.value).set(a.id, a); };
  const keep = (a: Approval) => {
    hold(a);
    void (async () => {
      for (let i = 0; i < 20; i += 1) {
        await load();
        if (!approvals.value?.some((p) => p.id === a.id)) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
  };
  const dismiss = (id: string) => { const next = new Map(answered.value); next.delete(id); answered.value = next; };
  const cardOf = (a: Approval) => <ApprovalCard key={a.id} approval={a} session={byId.get(a.session_id)} fleet={fleet} canAnswer={canAnswer}
    onPressing={() => hold(a)} onAnswered={() => keep(a)} onDismiss={pending?.some((p) => p.id === a.id) ? null : () => dismiss(a.id)} />;
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
