/**
 * Answering a prompt (a modal on a session's screen), wherever the dashboard shows one: the
 * inbox's cards, the session page, the overview's cards. One press: quote the fingerprint the
 * person saw, then show the outcome — pressed and cleared, pressed but still shown, or refused
 * because the modal changed, with the modal up now (from the 409's `current`), answerable in
 * place. Once cleared, the buttons are inert and the outcome stays. On the session page the keys
 * answer too (prompt-keys.ts); a device without the approve scope sees the buttons disabled.
 * @module
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { Approval } from '../protocol/approvals.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { ApiProblem, call } from './api-client.js';
import { buttonForKey, isTyping, keysOf } from './prompt-keys.js';

type Button = Approval['buttons'][number];

/** What is asked: an approval as listed, a session's live modal, or the modal a refusal said is up now. */
export interface Prompt { id: string; fingerprint: string; title: string | null; text: string | null; buttons: Button[]; kind: Approval['kind'] }

export type Outcome =
  | { kind: 'pressing'; label: string }
  | { kind: 'cleared' | 'still_shown'; label: string }
  | { kind: 'stale'; label: string; message: string; current: Prompt | null }
  | { kind: 'failed'; label: string; message: string };

export const buttonText = (b: { index: number; label: string }) => `${b.index}. ${b.label}`;

/** "Run npm test? · approval · 3 choices": what a modal asks, in one line. */
export function modalSummary(modal: Pick<Prompt, 'title' | 'kind' | 'buttons'>): string {
  const kind = modal.kind === 'approval' ? 'approval' : modal.kind === null ? 'modal' : `${modal.kind}, needs you`;
  return `${modal.title ?? 'A modal is up'} · ${kind} · ${modal.buttons.length} ${modal.buttons.length === 1 ? 'choice' : 'choices'}`;
}

/** A session's live modal as a prompt (the modal has no text: the terminal beside it shows it). */
export function promptOfModal(modal: NonNullable<SessionDetail['modal']>): Prompt {
  return { id: modal.approval_id, fingerprint: modal.fingerprint, title: modal.title, text: null, buttons: modal.buttons.map(({ index, label }) => ({ index, label })), kind: modal.kind };
}

/** The modal in a stale refusal's `current` member, when it is one. */
function currentModalOf(problem: ApiProblem): Prompt | null {
  const c = problem.body.current as { approval_id?: unknown; fingerprint?: unknown; title?: unknown; buttons?: unknown; kind?: unknown } | null | undefined;
  if (!c || typeof c.approval_id !== 'string' || typeof c.fingerprint !== 'string' || !Array.isArray(c.buttons)) return null;
  return { id: c.approval_id, fingerprint: c.fingerprint, title: typeof c.title === 'string' ? c.title : null, text: null, buttons: c.buttons as Button[], kind: (c.kind ?? null) as Prompt['kind'] };
}

export interface PromptAnswer {
  /** What is asked now: `prompt`, or the modal a refusal said replaced it. */
  asked: Prompt;
  outcome: Outcome | null;
  /** Pressed and cleared, or a press under way: the buttons are inert. */
  inert: boolean;
  press: (button: Button) => Promise<void>;
}

/**
 * The state of answering `prompt`. `onAnswered` gets the prompt a press answered. When the
 * caller's prompt becomes another modal, the outcome of the last one is dropped — unless it is
 * the modal a refusal already swapped in, whose refusal stays readable.
 */
export function usePromptAnswer(prompt: Prompt, onAnswered?: (answered: Prompt) => void, gone = false): PromptAnswer {
  const replaced = useSignal<Prompt | null>(null);
  const outcome = useSignal<Outcome | null>(null);
  const shownId = useRef(prompt.id);
  useEffect(() => {
    if (shownId.current === prompt.id) return;
    shownId.current = prompt.id;
    if (replaced.peek()?.id !== prompt.id) outcome.value = null;
    replaced.value = null;
  }, [prompt.id]);
  const asked = replaced.value ?? prompt;
  const o = outcome.value;
  const press = async (button: Button) => {
    const label = buttonText(button);
    outcome.value = { kind: 'pressing', label };
    try {
      const result = await call('answerApproval', { params: { id: asked.id }, body: { button: button.index, fingerprint: asked.fingerprint } });
      outcome.value = { kind: result.result, label };
      onAnswered?.(asked);
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'APPROVAL_STALE') {
        const current = currentModalOf(error);
        outcome.value = { kind: 'stale', label, message: error.message, current };
        if (current) { replaced.value = current; shownId.current = current.id; }
      } else {
        outcome.value = { kind: 'failed', label, message: error instanceof Error ? error.message : String(error) };
      }
    }
  };
  // A press answered "still shown" (the modal had not cleared yet when the daemon looked), and
  // the prompt has since left (`gone`): it cleared after all — on a loaded machine that is the
  // common case, and the card must not stay clickable.
  const settled: Outcome | null = gone && o?.kind === 'still_shown' ? { kind: 'cleared', label: o.label } : o;
  return { asked, outcome: settled, inert: gone || settled?.kind === 'cleared' || o?.kind === 'pressing', press };
}

/**
 * While `enabled`, the keys 1–9, `y` and `n` press the prompt's buttons — unless the person is
 * typing (a field, the terminal). A key that presses is consumed: nothing else sees it.
 */
export function usePromptKeys(answer: PromptAnswer, enabled: boolean): void {
  const latest = useRef(answer);
  latest.current = answer;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.repeat || isTyping(event)) return;
      const { asked, inert, press } = latest.current;
      const button = buttonForKey(event.key, asked.buttons);
      if (!button) return;
      event.preventDefault();
      event.stopPropagation();
      if (!inert) void press(button);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [enabled]);
}

/**
 * The buttons by their displayed number. `cursorOn`: the button the CLI's cursor is on (what
 * Enter would choose). `withKeys`: each button shows the keys that press it.
 */
export function PromptButtons(props: { answer: PromptAnswer; canAnswer: boolean; cursorOn?: number | undefined; withKeys?: boolean; compact?: boolean }) {
  const { asked, inert, press } = props.answer;
  return (
    <>
      <div class="card-buttons" role="group" aria-label={`Answers to ${asked.title ?? 'the modal'}`}>
        {asked.buttons.map((b) => {
          const keys = props.withKeys && props.canAnswer ? keysOf(b, asked.buttons) : [];
          const onCursor = b.index === props.cursorOn;
          return (
            <button type="button" key={`${asked.fingerprint}-${b.index}`} data-button-index={b.index} disabled={!props.canAnswer || inert}
              aria-current={onCursor ? 'true' : undefined} aria-keyshortcuts={keys.length > 0 ? keys.join(' ') : undefined}
              title={props.compact ? buttonText(b) : onCursor ? 'The CLI\'s cursor is on this option' : undefined}
              onClick={() => void press(b)}>
              {onCursor && <span class="cursor-mark" aria-hidden="true">❯ </span>}{buttonText(b)}
              {keys.length > 0 && <span class="key-hint" aria-hidden="true">{keys.map((k) => <kbd key={k}>{k}</kbd>)}</span>}
            </button>
          );
        })}
      </div>
      {!props.canAnswer && <p class="note">This device has the read scope: pair it with the approve scope to answer.</p>}
    </>
  );
}

/** What the last press did, in words. */
export function PromptOutcome(props: { outcome: Outcome | null }) {
  const o = props.outcome;
  if (!o) return null;
  return (
    <div class={`outcome outcome-${o.kind}`} role="status">
      {o.kind === 'pressing' && `Pressing ${o.label}…`}
      {o.kind === 'cleared' && `Pressed ${o.label}: the modal cleared.`}
      {o.kind === 'still_shown' && `Pressed ${o.label}, but the modal is still on screen; look at the session.`}
      {o.kind === 'failed' && `Not pressed: ${o.message}`}
      {o.kind === 'stale' && (o.current
        ? `Refused, nothing was pressed: the modal changed. The one up now is shown above: ${o.current.title ?? 'untitled'} (${o.current.buttons.map(buttonText).join(', ')}).`
        : `Refused, nothing was pressed: the modal is gone. ${o.message}`)}
    </div>
  );
}
