/**
 * Commands that act on what is on screen: control-bar clicks (keys, pickers, image paths),
 * modal presses by display index, and image attachments. Each refusal has its code (see
 * `RefusalCode`); nothing is written for a refused command.
 *
 * @module
 */
import type { CliSpecV4, Control, StateStatus } from '../core/spec/types.js';
import { stateById } from '../core/spec/model.js';
import type { ModalSnapshot } from '../core/eval/types.js';
import { compileRegex, resolveSections, sectionText } from '../core/eval/index.js';
import type { DispatchResult, RefusalCode } from './events.js';
import { decodeImageBlob } from './image-attachment.js';
import { writePrivateTempFile, type PrivateTempFile } from './private-temp.js';
import { splitTrailingEnter } from './submit-timing.js';
import type { TimerStore } from './timer-store.js';

const WIN32_MODAL_CONFIRM_GAP_MS = 350;
const WIN32_MODAL_CONFIRM_MAX_WRITES = 14;
/** Some TUIs ignore a slash command whose Enter arrives in the same write. */
const PICKER_ENTER_GAP_MS = 200;
/** How often the screen is re-read for the cursor on its way to the pressed row, and for how long. */
const CURSOR_CHECK_MS = 25;
const CURSOR_WAIT_MS = 2_000;

/** The modal last derived, with the state it belongs to (a press must be for the current one). */
export interface LatchedModal extends ModalSnapshot {
  stateId: string;
}

/** What the commands read from and do through the driver. */
export interface CommandHost {
  spec(): CliSpecV4;
  stateId(): string;
  status(): StateStatus;
  /** The modal as last emitted, or null. */
  modal(): LatchedModal | null;
  write(data: string): void;
  refuse(command: string, code: RefusalCode, reason: string): DispatchResult;
}

export class ScreenCommands {
  readonly #host: CommandHost;
  readonly #timers: TimerStore;
  readonly #platform: NodeJS.Platform;
  #pickerInProgress: Control | null = null;
  readonly #tempFiles: PrivateTempFile[] = [];

  constructor(host: CommandHost, timers: TimerStore, platform: NodeJS.Platform) {
    this.#host = host;
    this.#timers = timers;
    this.#platform = platform;
  }

  /** An `open_picker` control was clicked and its `wait_for` has not shown yet. */
  hasPickerInProgress(): boolean {
    return this.#pickerInProgress !== null;
  }

  /** Removes the attached images' temp files. */
  dispose(): void {
    for (const f of this.#tempFiles.splice(0)) f.remove();
  }

  clickControl(id: string, payload: unknown): DispatchResult {
    const ctl = (this.#host.spec().control_bar ?? []).find((c) => c.id === id);
    if (!ctl) return this.#host.refuse('click_control', 'UNKNOWN_CONTROL', `unknown control "${id}" (known: ${(this.#host.spec().control_bar ?? []).map((c) => c.id).join(', ') || 'none'})`);
    if (ctl.visible_when_state && !ctl.visible_when_state.includes(this.#host.stateId())) {
      return this.#host.refuse('click_control', 'CONTROL_UNAVAILABLE', `control "${id}" is not available in state "${this.#host.stateId()}" (only in ${ctl.visible_when_state.join(', ')})`);
    }
    const a = ctl.action;
    switch (a.type) {
      case 'send_keys': this.#host.write(a.keys); return { ok: true };
      case 'open_picker': {
        const split = splitTrailingEnter(a.trigger_keys);
        if (split) {
          this.#host.write(split[0]);
          this.#timers.later(PICKER_ENTER_GAP_MS, () => this.#host.write(split[1]));
        } else {
          this.#host.write(a.trigger_keys);
        }
        this.#pickerInProgress = ctl;
        return { ok: true };
      }
      case 'attach_image': {
        const p = payload && typeof payload === 'object' ? (payload as { path?: unknown }).path : undefined;
        if (typeof p !== 'string' || p === '') return this.#host.refuse('click_control', 'INVALID_COMMAND', `control "${id}" needs a payload {"path": "<file>"}`);
        this.#host.write(a.keys_template.replace(/\{path\}/g, p));
        return { ok: true };
      }
    }
  }

  advancePicker(viewportText: string): void {
    const ctl = this.#pickerInProgress;
    if (!ctl || ctl.action.type !== 'open_picker') { this.#pickerInProgress = null; return; }
    const wf = ctl.action.wait_for;
    const re = compileRegex(wf.regex, wf.flags ?? 'i');
    if (!re) { this.#pickerInProgress = null; return; }
    const sections = resolveSections(this.#host.spec().sections, viewportText.split('\n'));
    re.lastIndex = 0;
    if (re.test(sectionText(sections, wf.section, viewportText))) this.#pickerInProgress = null;
  }

  /** Presses a modal button by its DISPLAY index (§5.4), refusing on a stale or changed modal. */
  clickModalButton(index: number, expectedLabel: string | undefined): DispatchResult {
    const m = this.#host.modal();
    const state = stateById(this.#host.spec(), this.#host.stateId());
    if (!m || !state || m.stateId !== this.#host.stateId()) return this.#host.refuse('click_modal_button', 'NO_MODAL', `no modal is on screen (state "${this.#host.stateId()}")`);
    const btn = m.buttons.find((b) => b.index === index);
    if (!btn) return this.#host.refuse('click_modal_button', 'NO_SUCH_BUTTON', `no button ${index} (buttons: ${m.buttons.map((b) => `${b.index}. ${b.label}`).join(', ')})`);
    if (expectedLabel !== undefined && expectedLabel !== btn.label) {
      return this.#host.refuse('click_modal_button', 'MODAL_CHANGED', `button ${index} is now "${btn.label}", not "${expectedLabel}"; the modal changed`);
    }
    const rule = state.extract!.buttons!;
    if (rule.select_mode === 'arrow_keys') {
      const current = m.buttons.find((b) => b.current);
      if (!current) return this.#host.refuse('click_modal_button', 'MODAL_STALE', 'no row is marked current: the list is stale; refusing to press blindly');
      const delta = index - current.index;
      const up = rule.cursor_keys?.up || '\x1b[A';
      const down = rule.cursor_keys?.down || '\x1b[B';
      const confirm = (rule.key_for_index ?? '').replace(/\{index\}/g, '') || '\r';
      if (delta === 0) { this.#confirmModal(confirm); return { ok: true }; }
      this.#host.write((delta > 0 ? down : up).repeat(Math.abs(delta)));
      this.#confirmOnceCursorIsOn(btn, confirm);
      return { ok: true };
    }
    this.#confirmModal(btn.key);
    return { ok: true };
  }

  /**
   * Confirms once the screen, re-read, shows the cursor on `target` — never blind: a TUI that
   * reads the arrows and the Enter of one write as one key (Gemini CLI's lists) would move the
   * cursor and lose the Enter, and a modal that changed meanwhile must not get the press. No
   * cursor there within CURSOR_WAIT_MS, or another modal: nothing is pressed.
   */
  #confirmOnceCursorIsOn(target: { index: number; label: string }, confirm: string): void {
    const stateId = this.#host.stateId();
    let waited = 0;
    const check = (): void => {
      const m = this.#host.modal();
      if (!m || m.stateId !== stateId || this.#host.stateId() !== stateId) return;
      const on = m.buttons.find((b) => b.current);
      if (on && on.index === target.index && on.label === target.label) { this.#confirmModal(confirm); return; }
      waited += CURSOR_CHECK_MS;
      if (waited < CURSOR_WAIT_MS) this.#timers.later(CURSOR_CHECK_MS, check);
    };
    this.#timers.later(CURSOR_CHECK_MS, check);
  }

  /** POSIX: one write. win32: the trailing CR is resent every 350 ms while the modal is up (≤ 14). */
  #confirmModal(keys: string): void {
    if (this.#platform !== 'win32') { this.#host.write(keys); return; }
    const m = /^([\s\S]*?)([\r\n]*)$/.exec(keys)!;
    const prefix = m[1]!;
    const tail = m[2]!;
    if (prefix) this.#host.write(prefix);
    if (!tail) return;
    let writes = 0;
    const tick = (): void => {
      if (writes > 0 && this.#host.status() !== 'approval') return;
      if (writes >= WIN32_MODAL_CONFIRM_MAX_WRITES) return;
      this.#host.write(tail);
      writes += 1;
      this.#timers.later(WIN32_MODAL_CONFIRM_GAP_MS, tick);
    };
    tick();
  }

  attachImage(blob: string, mime: string): DispatchResult {
    const ctl = (this.#host.spec().control_bar ?? []).find((c) => c.action.type === 'attach_image');
    if (!ctl || ctl.action.type !== 'attach_image') return this.#host.refuse('attach_image', 'NOT_SUPPORTED', 'this spec has no attach_image control');
    const image = decodeImageBlob(blob, mime);
    if (!image.ok) return this.#host.refuse('attach_image', image.code, image.reason);
    try {
      const f = writePrivateTempFile(image.bytes, image.ext);
      this.#tempFiles.push(f);
      this.#host.write(ctl.action.keys_template.replace(/\{path\}/g, f.path));
      return { ok: true };
    } catch (err) {
      return this.#host.refuse('attach_image', 'IO_FAILED', `could not write the image to a private temp file: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
