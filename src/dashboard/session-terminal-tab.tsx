/**
 * The session view's terminal tab: the live terminal, the size lease and the input toggle
 * above it, the send box under it, and (for a spec with an attach_image control) an image
 * dropped or pasted on either. Typing into the terminal and sending both need the input
 * scope; without it the page only watches.
 */
import { useSignal } from '@preact/signals';
import { scopeAllows } from '../protocol/scopes.js';
import { ImageDrop } from './image-drop.js';
import { useLease } from './lease.js';
import type { SessionTabContext } from './session-tabs.js';
import { SendBox } from './send-box.js';
import { scope } from './state.js';
import TerminalView from './terminal-view.js';

const LEASE_TEXT = { you: 'You set the terminal size', other: 'Another viewer sets the size; this one fits it to the screen', none: 'Nobody sets the size' } as const;

export function TerminalTab(ctx: SessionTabContext) {
  const { session, live } = ctx;
  const canInput = scope.value !== null && scopeAllows(scope.value, 'input');
  const running = session.lifecycle === 'running';
  const inputOn = useSignal(false);
  const lease = useLease(live, session.id);
  return (
    <div class="terminal-tab">
      <div class="terminal-tools">
        <label class="toggle">
          <input type="checkbox" name="input-passthrough" checked={inputOn.value && canInput} disabled={!canInput || !running}
            onChange={(e) => { inputOn.value = (e.target as HTMLInputElement).checked; }} />
          Type into the terminal{canInput ? '' : ' (needs the input scope)'}
        </label>
        <span class="lease" data-lease={lease.holder}>{LEASE_TEXT[lease.holder]}</span>
        {canInput && running && (lease.holder === 'you'
          ? <button type="button" onClick={lease.release}>Release size</button>
          : <button type="button" onClick={lease.acquire} disabled={lease.holder === 'other'}>Take size control</button>)}
      </div>
      <ImageDrop sessionId={session.id} enabled={canInput && running && session.controls.some((c) => c.action_type === 'attach_image')}>
        <TerminalView sessionId={session.id} live={live} input={inputOn.value && canInput && running} controlsSize={lease.holder === 'you'} />
        <SendBox sessionId={session.id} enabled={canInput && running} events={ctx.lastEvent} />
      </ImageDrop>
    </div>
  );
}
