/**
 * The send box: types a message into the agent the way the spec says (`POST …/messages`, one
 * idempotency key per message, so a retry never types twice) and shows its delivery receipt,
 * step by step: queued → typed → echoed → turn started. The request waits until the turn
 * started (`wait: started`); meanwhile the session's own events move the receipt on (the agent
 * leaving idle is the turn starting), and the answer settles it — or says why it was refused or
 * timed out. Enter sends, Shift+Enter is a new line.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { DaemonEvent } from '../protocol/events.js';
import { call } from './api-client.js';

export const RECEIPT_STEPS = ['queued', 'typed', 'echoed', 'turn_started'] as const;
export type ReceiptStep = typeof RECEIPT_STEPS[number];
const STEP_TEXT: Record<ReceiptStep, string> = { queued: 'queued', typed: 'typed', echoed: 'echoed', turn_started: 'turn started' };
/** How long the request waits for the turn to start before the receipt says it timed out. */
const TURN_START_WAIT_MS = 60_000;

export interface Receipt {
  key: string;
  text: string;
  /** The furthest step known. */
  reached: ReceiptStep;
  /** Set when the message will go no further. */
  failure: { delivery: 'refused' | 'timed_out' | 'error'; reason: string } | null;
  settled: boolean;
}

/** The step a delivery outcome proves (`turn_started` implies it was typed and echoed). */
export function stepOf(delivery: string): ReceiptStep | null {
  if (delivery === 'idle') return 'turn_started';
  return (RECEIPT_STEPS as readonly string[]).includes(delivery) ? delivery as ReceiptStep : null;
}

/** The later of two steps. */
export function furthest(a: ReceiptStep, b: ReceiptStep): ReceiptStep {
  return RECEIPT_STEPS.indexOf(a) >= RECEIPT_STEPS.indexOf(b) ? a : b;
}

function ReceiptView(props: { receipt: Receipt }) {
  const r = props.receipt;
  const at = RECEIPT_STEPS.indexOf(r.reached);
  return (
    <li class="receipt" data-reached={r.reached} data-failure={r.failure?.delivery}>
      <span class="receipt-text">{r.text}</span>
      <ol class="receipt-steps" aria-label="Delivery">
        {RECEIPT_STEPS.map((step, i) => <li key={step} class={i <= at ? 'done' : 'todo'}>{i <= at ? '✓ ' : ''}{STEP_TEXT[step]}</li>)}
      </ol>
      {r.failure && <p class="problem">{r.failure.delivery === 'timed_out' ? 'Timed out' : 'Not delivered'}: {r.failure.reason}</p>}
    </li>
  );
}

export function SendBox(props: { sessionId: string; enabled: boolean; events: DaemonEvent | null }) {
  const text = useSignal('');
  const receipts = useSignal<Receipt[]>([]);
  /** Why the last press of Send sent nothing (an empty message), until the person types. */
  const hint = useSignal<string | null>(null);
  const update = (key: string, change: (r: Receipt) => Receipt) => {
    receipts.value = receipts.value.map((r) => (r.key === key ? change(r) : r));
  };

  // The agent leaving idle after a send is that message's turn starting.
  useEffect(() => {
    const event = props.events;
    if (event?.type !== 'session.state' || event.state.status === 'idle') return;
    const open = receipts.value.find((r) => !r.settled && r.failure === null);
    if (open) update(open.key, (r) => ({ ...r, reached: furthest(r.reached, 'turn_started') }));
  }, [props.events]);

  const send = async () => {
    const message = text.value;
    if (message.trim() === '') {
      hint.value = 'Nothing was sent: type a message first.';
      return;
    }
    hint.value = null;
    const key = crypto.randomUUID();
    receipts.value = [{ key, text: message, reached: 'queued' as const, failure: null, settled: false }, ...receipts.value].slice(0, 5);
    text.value = '';
    try {
      const outcome = await call('sendMessage', { params: { id: props.sessionId }, body: { text: message, idempotency_key: key, wait: 'started', timeout_ms: TURN_START_WAIT_MS } });
      const step = stepOf(outcome.delivery);
      update(key, (r) => ({
        ...r, settled: true, reached: step ? furthest(r.reached, step) : r.reached,
        failure: step ? null : { delivery: outcome.delivery === 'timed_out' ? 'timed_out' : 'refused', reason: outcome.reason ?? outcome.delivery },
      }));
    } catch (error) {
      update(key, (r) => ({ ...r, settled: true, failure: { delivery: 'error', reason: error instanceof Error ? error.message : String(error) } }));
    }
  };

  return (
    <div class="send-box">
      <form onSubmit={(e) => { e.preventDefault(); void send(); }} aria-label="Send a message">
        <label for={`send-${props.sessionId}`} class="visually-hidden">Message to the agent</label>
        <textarea id={`send-${props.sessionId}`} name="message" rows={2} value={text.value} disabled={!props.enabled}
          placeholder={props.enabled ? 'Message to the agent (Enter sends, Shift+Enter new line)' : 'Sending needs the input scope'}
          onInput={(e) => { text.value = (e.target as HTMLTextAreaElement).value; if (text.value.trim() !== '') hint.value = null; }}
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); void send(); } }} />
        <button type="submit" disabled={!props.enabled}>Send</button>
      </form>
      {hint.value !== null && <p class="send-hint problem" role="alert">{hint.value}</p>}
      {receipts.value.length > 0 && <ul class="receipts" aria-live="polite">{receipts.value.map((r) => <ReceiptView key={r.key} receipt={r} />)}</ul>}
    </div>
  );
}
