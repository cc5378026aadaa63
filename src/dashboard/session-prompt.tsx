/**
 * A session's prompt answered where the person looks (issue 26 item 7): on the session page
 * (with its title, the keys 1–9, y and n, and a hint naming them) and, compactly, on the
 * session's overview card. The modal comes live with the session; once a press here cleared it,
 * the prompt stays with its outcome and inert buttons until dismissed or another modal comes.
 * A modal the person opened themselves (the model picker after `/model`) waits for nobody:
 * the session page shows it, the overview does not.
 */
import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { SessionDetail } from '../protocol/sessions.js';
import { isOpenedByPerson } from './attention.js';
import { modalSummary, promptOfModal, PromptButtons, PromptOutcome, usePromptAnswer, usePromptKeys, type Prompt } from './prompt-answer.js';
import { navigate } from './state.js';

interface PanelProps {
  prompt: Prompt;
  /** The prompt is the session's modal now (not one this page answered, since gone). */
  live: boolean;
  cursorOn: number | undefined;
  canAnswer: boolean;
  compact: boolean;
}

function PromptPanel(props: PanelProps) {
  // A modal gone from the screen can no longer be pressed, whatever the last press said.
  const shown = usePromptAnswer(props.prompt, undefined, !props.live);
  const dismissed = useSignal<string | null>(null);
  usePromptKeys(shown, !props.compact && props.canAnswer && props.live);
  const { asked, outcome } = shown;
  if (!props.live && (outcome === null || dismissed.value === asked.id)) return null;
  const dismiss = props.live ? null : <button type="button" class="dismiss" onClick={() => { dismissed.value = asked.id; }}>Dismiss</button>;
  const state = shown.inert && outcome?.kind !== 'pressing' ? ' answered' : '';
  if (props.compact) {
    return (
      <div class={`session-prompt session-prompt-compact${state}`} data-approval-id={asked.id}>
        <PromptButtons answer={shown} canAnswer={props.canAnswer} cursorOn={props.cursorOn} compact />
        <PromptOutcome outcome={outcome} />
        {dismiss}
      </div>
    );
  }
  return (
    <section class={`session-prompt${state}`} data-approval-id={asked.id} aria-label="The prompt on screen">
      <p class="modal-title" role="status">
        {modalSummary(asked)}{props.live && <> · <a href="/inbox" onClick={(e) => { e.preventDefault(); navigate('/inbox'); }}>in the inbox</a></>}
      </p>
      <PromptButtons answer={shown} canAnswer={props.canAnswer} cursorOn={props.cursorOn} withKeys />
      {props.canAnswer && props.live && <p class="hint">Keys: the number presses that button, <kbd>y</kbd> the first “Yes”, <kbd>n</kbd> the first “No” (not while typing in a field or the terminal).</p>}
      <PromptOutcome outcome={outcome} />
      {dismiss}
    </section>
  );
}

/** The session's prompt, when it has one (or this page just answered one); `compact` on the overview. */
export function SessionPrompt(props: { session: SessionDetail; canAnswer: boolean; compact?: boolean }) {
  const last = useRef<Prompt | null>(null);
  const modal = props.session.modal;
  const compact = props.compact ?? false;
  const live = modal !== null && !(compact && isOpenedByPerson(modal)) ? promptOfModal(modal) : null;
  if (live) last.current = live;
  const prompt = live ?? last.current;
  if (prompt === null) return null;
  const cursorOn = modal?.approval_id === prompt.id ? modal.buttons.find((b) => b.current)?.index : undefined;
  return <PromptPanel prompt={prompt} live={live !== null} cursorOn={cursorOn} canAnswer={props.canAnswer} compact={compact} />;
}
