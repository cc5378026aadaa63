/**
 * The outgoing transitions of a state, evaluated: verdict, every condition with its result,
 * detail and matched text, and a countdown bar for each hold and time window still running.
 * `now` is server time: the live view ticks it, a past moment passes its own instant.
 */
import type { DebugCondition, DebugTransition } from '../protocol/debug.js';
import { formatDuration, fractionLeft, remainingMs } from './countdown.js';

export function CountdownBar(props: { dueAt: number; windowMs: number | null; now: number; what: string }) {
  const left = remainingMs(props.dueAt, props.now);
  const fill = fractionLeft(props.dueAt, props.now, props.windowMs);
  const max = props.windowMs ?? Math.max(left, 1);
  return (
    <div class="countdown" role="progressbar" aria-label={`${props.what}: ${formatDuration(left)} left`}
      aria-valuemin={0} aria-valuemax={max} aria-valuenow={Math.min(left, max)} data-remaining-ms={left} data-due-at={props.dueAt}>
      <div class="countdown-fill" style={{ width: `${(fill * 100).toFixed(1)}%` }} />
      <span class="countdown-text">{left > 0 ? `${formatDuration(left)} left` : 'due'}</span>
    </div>
  );
}

function Condition(props: { c: DebugCondition; now: number }) {
  const { c } = props;
  return (
    <li class={c.result ? 'cond cond-true' : 'cond cond-false'} data-kind={c.kind} data-result={String(c.result)}>
      <span class="cond-mark" aria-label={c.result ? 'true' : 'false'}>{c.result ? '✓' : '✗'}</span>{' '}
      <span class="cond-kind">{c.kind}</span>{c.detail ? <>: <code>{c.detail}</code></> : null}
      {c.matched_text ? <span class="matched"> matched <q>{c.matched_text}</q></span> : null}
      {c.due_at !== null && c.children.length === 0 ? <CountdownBar dueAt={c.due_at} windowMs={c.window_ms} now={props.now} what={`${c.kind} window`} /> : null}
      {c.children.length > 0 ? <ul class="conds">{c.children.map((child, i) => <Condition key={i} c={child} now={props.now} />)}</ul> : null}
    </li>
  );
}

function verdict(t: DebugTransition): string {
  if (t.fires) return 'fires';
  if (!t.eligible) return 'not eligible';
  if (!t.guard) return 'guard false';
  return t.hold_due_at !== null ? 'guard true, holding' : 'guard true';
}

export function TransitionTable(props: { transitions: DebugTransition[]; now: number; from: string }) {
  if (props.transitions.length === 0) return <p class="empty">No outgoing transitions from {props.from}.</p>;
  return (
    <ol class="transitions">
      {props.transitions.map((t, i) => (
        <li key={`${t.to}-${i}`} class={`transition${t.guard ? ' transition-guard' : ''}`} data-to={t.to}>
          <div class="transition-head">
            <strong>→ {t.to}</strong> <span>“{t.label}”</span> <span class="muted">priority {t.priority}</span>{' '}
            <span class="verdict">[{verdict(t)}]</span>
          </div>
          {t.hold_due_at !== null ? <CountdownBar dueAt={t.hold_due_at} windowMs={t.hold_ms || null} now={props.now} what={`hold of ${t.hold_ms} ms`} /> : null}
          {t.cond ? <ul class="conds"><Condition c={t.cond} now={props.now} /></ul> : <p class="muted">No guard: always true.</p>}
        </li>
      ))}
    </ol>
  );
}
