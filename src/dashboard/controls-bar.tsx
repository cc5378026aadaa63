/**
 * The session's control bar: the spec's controls (stop, a model picker, modes: whatever the
 * spec declares, pressed by id; a picker then opens on screen and shows up in the inbox), then
 * the session's own: interrupt (Esc) unless the spec offers its own stop, restart, kill. Every press needs the input scope; a
 * refusal shows the daemon's reason.
 */
import { useSignal } from '@preact/signals';
import type { SessionDetail } from '../protocol/sessions.js';
import { ApiProblem, call } from './api-client.js';

/** A spec control that ends the agent's turn (by id or by what its button says). */
export function isStopControl(control: { id: string; label: string }): boolean {
  return /^(stop|interrupt|cancel)$/i.test(control.id) || /^(stop|interrupt|cancel)\b/i.test(control.label);
}

export function ControlsBar(props: { session: SessionDetail; enabled: boolean; onChanged: () => void }) {
  const status = useSignal<{ ok: boolean; text: string } | null>(null);
  const { session } = props;
  const running = session.lifecycle === 'running';
  const act = async (label: string, what: () => Promise<unknown>) => {
    status.value = { ok: true, text: `${label}…` };
    try {
      await what();
      status.value = { ok: true, text: `${label}: done` };
      props.onChanged();
    } catch (error) {
      status.value = { ok: false, text: `${label}: ${error instanceof ApiProblem ? error.message : String(error)}` };
    }
  };
  const id = session.id;
  // attach_image controls are served by the image drop of the send box, not pressed here.
  const specControls = session.controls.filter((c) => c.action_type !== 'attach_image');
  // A spec's own stop (Ctrl-C for one CLI, Esc for another) is the way to end a turn: showing
  // our generic Esc beside it offers two buttons for one wish, one of them maybe wrong.
  const specStops = specControls.some(isStopControl);
  return (
    <div class="controls-bar" role="toolbar" aria-label="Session controls">
      {specControls.map((c) => (
        <button type="button" key={c.id} data-control-id={c.id} disabled={!props.enabled || !running}
          onClick={() => void act(c.label, () => call('pressControl', { params: { id, control_id: c.id }, body: {} }))}>{c.label}</button>
      ))}
      {!specStops && (
        <button type="button" disabled={!props.enabled || !running} title="Sends Esc, which most agents read as interrupt"
          onClick={() => void act('Interrupt', () => call('sendKeys', { params: { id }, body: { data: '\u001b' } }))}>Interrupt (Esc)</button>
      )}
      <button type="button" disabled={!props.enabled} onClick={() => void act('Restart', () => call('restartSession', { params: { id } }))}>Restart</button>
      <button type="button" class="danger" disabled={!props.enabled || !running} onClick={() => void act('Kill', () => call('killSession', { params: { id } }))}>Kill</button>
      {status.value && <span class={status.value.ok ? 'control-status' : 'control-status problem'} role="status">{status.value.text}</span>}
    </div>
  );
}
